package app

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/games/play"
	"pcgwb/problems"
	"pcgwb/problems/levelio"
)

// DetailView is one level opened from a gallery: its full picture, its metrics, its control
// and every info field, with buttons to edit and export it.
type DetailView struct {
	Title   *widget.Label
	Picture *canvas.Image
	// pictureView scrolls the picture when it is larger than the room the window leaves.
	pictureView *container.Scroll
	Badges      []*Badge
	Fitness     *widget.Label
	Control     *widget.Label
	Info        *widget.Label
	EditButton  *widget.Button
	PNGButton   *widget.Button
	JSONButton  *widget.Button
	// LevelsButton exports the level as text and a Tiled map (tile problems only).
	LevelsButton *widget.Button
	// PlayButton and WatchButton open the play window (a child process) on the level; nil
	// for problems that cannot be played. Watch stays disabled, with WatchNote saying why,
	// when the level has no recorded solution.
	PlayButton, WatchButton *widget.Button
	WatchNote               *widget.Label
	// WatchPlayButton replays the last play of the level from its recorded input trace.
	WatchPlayButton *widget.Button
	lastPlay        *play.Outcome
	// Outcome shows how the last play of the level ended (the play window's report).
	Outcome *widget.Label
	Dialog  *dialog.CustomDialog

	Member     Member
	Problem    string
	infos      latest
	watchCheck latest
}

// ShowDetail opens member m of problem name (p) in a dialog over the window. img is its
// picture when already drawn (nil: drawn here).
func (wb *Workbench) ShowDetail(name string, p problems.Problem, m Member, img image.Image) *DetailView {
	dv := &DetailView{Member: m, Problem: name}
	var renderErr error
	if img == nil {
		img, renderErr = safeRender(p, m.Content)
	}
	dv.Title = widget.NewLabel(fmt.Sprintf("#%d · %s", m.Index+1, name))
	dv.Title.SizeName = theme.SizeNameSubHeadingText
	dv.Title.TextStyle = fyne.TextStyle{Bold: true}

	size := wb.Window.Canvas().Size()
	dlg := fyne.NewSize(min(size.Width-40, 1100), min(size.Height-40, 640))
	wide := img != nil && img.Bounds().Dx() >= 2*img.Bounds().Dy()
	if wide {
		// A wide level (Super Mario Bros is 2400 pixels) goes above the metrics, across the
		// whole window, however wide the screen.
		dlg.Width = size.Width - 40
	}
	var picture fyne.CanvasObject
	if img != nil {
		dv.Picture = canvas.NewImageFromImage(img)
		dv.Picture.FillMode = canvas.ImageFillContain
		dv.Picture.ScaleMode = canvas.ImageScalePixels
		box := fyne.NewSize(min(560, dlg.Width/2), min(440, dlg.Height-200))
		if wide {
			box = fyne.NewSize(dlg.Width-60, min(280, dlg.Height/3))
		}
		pic := pictureSize(img.Bounds().Dx(), img.Bounds().Dy(), box)
		dv.Picture.SetMinSize(pic)
		back := canvas.NewRectangle(colorCard())
		back.CornerRadius = 4
		// What does not fit the box even at half size scrolls, so the dialog never grows past
		// the window and its buttons stay on screen.
		view := container.NewScroll(dv.Picture)
		view.SetMinSize(fyne.NewSize(min(pic.Width, box.Width), min(pic.Height, box.Height)))
		dv.pictureView = view
		picture = container.NewStack(back, container.NewPadded(view))
	} else {
		msg := widget.NewLabel(fmt.Sprintf("no picture: %v", renderErr))
		msg.Importance = widget.DangerImportance
		msg.Wrapping = fyne.TextWrapWord
		picture = msg
	}

	dv.Badges = []*Badge{NewBadge("Quality", m.Quality), NewBadge("Diversity", m.Diversity), NewBadge("Controllability", m.Controllability)}
	dv.Fitness = widget.NewLabel(fmt.Sprintf("fitness %.3f", m.Fitness))
	badgeRow := container.NewHBox(dv.Badges[0], dv.Badges[1], dv.Badges[2], tip(dv.Fitness, tipFitness))

	dv.Control = widget.NewLabel(controlText(m.Control))
	dv.Control.TextStyle = fyne.TextStyle{Monospace: true}
	dv.Control.Wrapping = fyne.TextWrapWord
	dv.Info = widget.NewLabel("computing…")
	dv.Info.TextStyle = fyne.TextStyle{Monospace: true}
	if m.Info != nil {
		dv.Info.SetText(strings.Join(InfoLines(m.Info), "\n"))
	} else {
		dv.infos.Go(func(ctx context.Context) func() {
			info, err := p.Info(m.Content)
			return func() {
				if err != nil {
					dv.Info.SetText("info failed: " + err.Error())
					return
				}
				dv.Member.Info = info
				dv.Info.SetText(strings.Join(InfoLines(info), "\n"))
			}
		})
	}

	dv.EditButton = widget.NewButtonWithIcon("Edit tiles", theme.DocumentCreateIcon(), func() {
		dv.Dialog.Hide()
		wb.EditMember(name, p, dv.Member)
	})
	if _, ok := TileGridOf(p); !ok {
		dv.EditButton.SetText("Edit (tile grids only)")
		dv.EditButton.Disable()
	}
	dv.PNGButton = widget.NewButtonWithIcon("PNG…", theme.FileImageIcon(), func() {
		wb.saveFileDialog(fmt.Sprintf("%s-%d.png", name, m.Index+1), func() ([]byte, error) {
			if img == nil {
				return nil, fmt.Errorf("this level has no picture")
			}
			return EncodePNG(img)
		})
	})
	dv.JSONButton = widget.NewButtonWithIcon("JSON…", theme.FileTextIcon(), func() {
		wb.saveFileDialog(fmt.Sprintf("%s-%d.json", name, m.Index+1), func() ([]byte, error) {
			return ItemsJSON(name, []Member{dv.Member})
		})
	})

	dv.LevelsButton = widget.NewButtonWithIcon("Tiled / text…", theme.DocumentSaveIcon(), func() {
		wb.exportLevelDialog(name, p, dv.Member)
	})
	if _, _, err := levelio.LegendOf(name, p); err != nil {
		dv.LevelsButton.Disable()
	}
	buttons := container.NewHBox(dv.EditButton, dv.PNGButton, dv.JSONButton, dv.LevelsButton)
	dv.Outcome = widget.NewLabel("")
	dv.WatchNote = widget.NewLabel("")
	// The reason Watch is off can be long: it wraps in the room left, never widening the dialog.
	dv.WatchNote.Wrapping = fyne.TextWrapWord
	if CanPlay(name) {
		dv.addPlay(wb, name, p, buttons)
	}
	infoScroll := container.NewScroll(dv.Info) // long paths scroll sideways instead of widening the dialog
	infoScroll.SetMinSize(fyne.NewSize(300, 200))
	footer := container.NewVBox(container.NewBorder(nil, nil, dv.Outcome, nil, dv.WatchNote), buttons)
	var body fyne.CanvasObject
	if wide {
		// metrics and control beside the info, under the picture: the dialog stays low enough
		// for a 700-pixel screen
		infoScroll.SetMinSize(fyne.NewSize(300, 120))
		metrics := container.NewVBox(badgeRow, sectionTitle("CONTROL"), dv.Control)
		info := container.NewBorder(sectionTitle("INFO"), nil, nil, nil, infoScroll)
		body = container.NewBorder(container.NewVBox(dv.Title, picture), footer, metrics, nil, info)
	} else {
		right := container.NewBorder(
			container.NewVBox(badgeRow, sectionTitle("CONTROL"), dv.Control, sectionTitle("INFO")),
			footer, nil, nil, infoScroll)
		body = container.NewBorder(dv.Title, nil, container.NewCenter(picture), nil, right)
	}
	dv.Dialog = dialog.NewCustom("Level", "Close", withTipLayer(body, true), wb.Window)
	dv.Dialog.Resize(dlg)
	dv.Dialog.Show()
	wb.Detail = dv
	return dv
}

// pictureSize is the size a level's w×h picture is shown at in a box: small pictures are
// enlarged by the largest whole factor that fits (pixel art stays crisp), large ones shrunk to
// fit, but never below half size, where tiles become unreadable (the view scrolls instead).
func pictureSize(w, h int, box fyne.Size) fyne.Size {
	fw, fh := float32(w), float32(h)
	if fw <= 0 || fh <= 0 {
		return fyne.NewSize(0, 0)
	}
	s := min(box.Width/fw, box.Height/fh)
	switch {
	case s >= 1:
		s = float32(int(s))
	case s < 0.5:
		s = 0.5
	}
	return fyne.NewSize(fw*s, fh*s)
}

func controlText(c problems.Control) string {
	if c == nil {
		return "(none)"
	}
	if m, ok := c.(map[string]any); ok {
		return strings.Join(InfoLines(m), "\n")
	}
	b, err := json.Marshal(c)
	if err != nil {
		return fmt.Sprint(c)
	}
	return string(b)
}

// openMember is the galleries' OnOpen: it shows the tapped member in a dialog.
func (wb *Workbench) openMember(pv *PopulationView, pos int) {
	name, p := pv.Problem()
	if p == nil || pos < 0 || pos >= len(pv.Members()) {
		return
	}
	wb.ShowDetail(name, p, pv.Members()[pos], pv.Image(pos))
}
