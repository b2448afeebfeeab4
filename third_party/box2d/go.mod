module github.com/ByteArena/box2d

go 1.13
