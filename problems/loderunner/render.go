package loderunner

// Rendering is the engine's: loderunnertile.Problem.Render draws the expanded level
// (loderunnertile.RenderLevel, 512×352 for the default size).
