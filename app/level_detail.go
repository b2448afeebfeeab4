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

	"pcgwb/app/widgets"
	"pcgwb/games/play"
	"pcgwb/problems"
	"pcgwb/problems/levelio"
)

// detailView is one level opened from a gallery: its full picture, its metrics, its control
// and every info field, with buttons to edit and export it.
type detailView struct {
	title   *widget.Label
	picture *canvas.Image
	// pictureView scrolls the picture when it is larger than the room the window leaves.
	pictureView *container.Scroll
	badges      []*widgets.Badge
	fitness     *widget.Label
	control     *widget.Label
	info        *widget.Label
	editButton  *widget.Button
	pngButton   *widget.Button
	jsonButton  *widget.Button
	// levelsButton exports the level as text and a Tiled map (tile problems only).
	levelsButton *widget.Button
	// playButton and WatchButton open the play window (a child process) on the level; nil
	// for problems that cannot be played. Watch stays disabled, with WatchNote saying why,
	// when the level has no recorded solution.
	playButton, watchButton *widget.Button
	watchNote               *widget.Label
	// watchPlayButton replays the last play of the level from its recorded input trace.
	watchPlayButton *widget.Button
	lastPlay        *play.Outcome
	// outcome shows how the last play of the level ended (the play window's report).
	outcome *widget.Label
	dialog  *dialog.CustomDialog

	member     member
	problem    string
	infos      latest
	watchCheck latest
}

// showDetail opens member m of problem name (p) in a dialog over the window. img is its
// picture when already drawn (nil: drawn here).
func (wb *Workbench) showDetail(name string, p problems.Problem, m member, img image.Image) *detailView {
	dv := &detailView{member: m, problem: name, infos: latest{ui: wb.ui}, watchCheck: latest{ui: wb.ui}}
	var renderErr error
	if img == nil {
		img, renderErr = safeRender(p, m.Content)
	}
	dv.title = widget.NewLabel(fmt.Sprintf("#%d · %s", m.index+1, name))
	dv.title.SizeName = theme.SizeNameSubHeadingText
	dv.title.TextStyle = fyne.TextStyle{Bold: true}

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
		dv.picture = canvas.NewImageFromImage(img)
		dv.picture.FillMode = canvas.ImageFillContain
		dv.picture.ScaleMode = canvas.ImageScalePixels
		box := fyne.NewSize(min(560, dlg.Width/2), min(440, dlg.Height-200))
		if wide {
			box = fyne.NewSize(dlg.Width-60, min(280, dlg.Height/3))
		}
		pic := pictureSize(img.Bounds().Dx(), img.Bounds().Dy(), box)
		dv.picture.SetMinSize(pic)
		back := canvas.NewRectangle(colorCard())
		back.CornerRadius = 4
		// What does not fit the box even at half size scrolls, so the dialog never grows past
		// the window and its buttons stay on screen.
		view := container.NewScroll(dv.picture)
		view.SetMinSize(fyne.NewSize(min(pic.Width, box.Width), min(pic.Height, box.Height)))
		dv.pictureView = view
		picture = container.NewStack(back, container.NewPadded(view))
	} else {
		msg := widget.NewLabel(fmt.Sprintf("no picture: %v", renderErr))
		msg.Importance = widget.DangerImportance
		msg.Wrapping = fyne.TextWrapWord
		picture = msg
	}

	dv.badges = []*widgets.Badge{widgets.NewBadge("Quality", m.Quality), widgets.NewBadge("Diversity", m.Diversity), widgets.NewBadge("Controllability", m.Controllability)}
	dv.fitness = widget.NewLabel(fmt.Sprintf("fitness %.3f", m.Fitness))
	badgeRow := container.NewHBox(dv.badges[0], dv.badges[1], dv.badges[2], widgets.Tip(dv.fitness, tipFitness))

	dv.control = widget.NewLabel(controlText(m.Control))
	dv.control.TextStyle = fyne.TextStyle{Monospace: true}
	dv.control.Wrapping = fyne.TextWrapWord
	dv.info = widget.NewLabel("computing…")
	dv.info.TextStyle = fyne.TextStyle{Monospace: true}
	if m.Info != nil {
		dv.info.SetText(strings.Join(infoLines(m.Info), "\n"))
	} else {
		dv.infos.Go(func(ctx context.Context) func() {
			info, err := p.Info(m.Content)
			return func() {
				if err != nil {
					dv.info.SetText("info failed: " + err.Error())
					return
				}
				dv.member.Info = info
				dv.info.SetText(strings.Join(infoLines(info), "\n"))
			}
		})
	}

	dv.editButton = widget.NewButtonWithIcon("Edit tiles", theme.DocumentCreateIcon(), func() {
		dv.dialog.Hide()
		wb.editMember(name, p, dv.member)
	})
	if _, ok := tileGridOf(p); !ok {
		dv.editButton.SetText("Edit (tile grids only)")
		dv.editButton.Disable()
	}
	dv.pngButton = widget.NewButtonWithIcon("PNG…", theme.FileImageIcon(), func() {
		wb.saveFileDialog(fmt.Sprintf("%s-%d.png", name, m.index+1), func() ([]byte, error) {
			if img == nil {
				return nil, fmt.Errorf("this level has no picture")
			}
			return encodePNG(img)
		})
	})
	dv.jsonButton = widget.NewButtonWithIcon("JSON…", theme.FileTextIcon(), func() {
		wb.saveFileDialog(fmt.Sprintf("%s-%d.json", name, m.index+1), func() ([]byte, error) {
			return itemsJSON(name, []member{dv.member})
		})
	})

	dv.levelsButton = widget.NewButtonWithIcon("Tiled / text…", theme.DocumentSaveIcon(), func() {
		wb.exportLevelDialog(name, p, dv.member)
	})
	if _, _, err := levelio.LegendOf(name, p); err != nil {
		dv.levelsButton.Disable()
	}
	buttons := container.NewHBox(dv.editButton, dv.pngButton, dv.jsonButton, dv.levelsButton)
	dv.outcome = widget.NewLabel("")
	dv.watchNote = widget.NewLabel("")
	// The reason Watch is off can be long: it wraps in the room left, never widening the dialog.
	dv.watchNote.Wrapping = fyne.TextWrapWord
	if CanPlay(name) {
		dv.addPlay(wb, name, p, buttons)
	}
	infoScroll := container.NewScroll(dv.info) // long paths scroll sideways instead of widening the dialog
	infoScroll.SetMinSize(fyne.NewSize(300, 200))
	footer := container.NewVBox(container.NewBorder(nil, nil, dv.outcome, nil, dv.watchNote), buttons)
	var body fyne.CanvasObject
	if wide {
		// metrics and control beside the info, under the picture: the dialog stays low enough
		// for a 700-pixel screen
		infoScroll.SetMinSize(fyne.NewSize(300, 120))
		metrics := container.NewVBox(badgeRow, sectionTitle("CONTROL"), dv.control)
		info := container.NewBorder(sectionTitle("INFO"), nil, nil, nil, infoScroll)
		body = container.NewBorder(container.NewVBox(dv.title, picture), footer, metrics, nil, info)
	} else {
		right := container.NewBorder(
			container.NewVBox(badgeRow, sectionTitle("CONTROL"), dv.control, sectionTitle("INFO")),
			footer, nil, nil, infoScroll)
		body = container.NewBorder(dv.title, nil, container.NewCenter(picture), nil, right)
	}
	dv.dialog = dialog.NewCustom("Level", "Close", widgets.WithTipLayer(body, true), wb.Window)
	dv.dialog.Resize(dlg)
	dv.dialog.Show()
	wb.detail = dv
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
		return strings.Join(infoLines(m), "\n")
	}
	b, err := json.Marshal(c)
	if err != nil {
		return fmt.Sprint(c)
	}
	return string(b)
}

// openMember is the galleries' OnOpen: it shows the tapped member in a dialog.
func (wb *Workbench) openMember(pv *populationView, pos int) {
	name, p := pv.Problem()
	if p == nil || pos < 0 || pos >= len(pv.Members()) {
		return
	}
	wb.showDetail(name, p, pv.Members()[pos], pv.Image(pos))
}
