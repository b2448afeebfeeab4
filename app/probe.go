package app

import (
	"cmp"
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// PressEverything is the workbench's front-door check, what a curious user does on a first
// visit: every tab brought to the front in turn, every enabled button, check and other
// tappable control of it pressed, every menu item chosen, every shortcut and function key
// typed, and each dialog that opens dismissed again (its Cancel or Close, one level deep).
// It discovers the controls by walking the window's widget tree, so a control added later is
// pressed without anyone listing it. The test of the app package runs it on Fyne's test driver
// (with a complete walk through the widgets' renderers); the real binary runs it in a real
// window (the --press-everything scripting flag, `make test`'s smoke test).
//
// It must be called off the UI goroutine: it presses on the UI goroutine and waits for the
// work a press started in between. A panic of a press is not recovered: it is what the check
// exists to find.
func (wb *Workbench) PressEverything(ctx context.Context, o PressOptions) (*PressReport, error) {
	p := &presser{wb: wb, o: o, rep: &PressReport{}}
	if p.o.children == nil {
		p.o.children = publicChildren
	}
	if p.o.sameKindLimit <= 0 {
		p.o.sameKindLimit = 3
	}
	for _, name := range TabNames() {
		if err := p.pressTab(ctx, name, false); err != nil {
			return p.rep, err
		}
	}
	// The problem list and what surrounds the tabs, once: pressing a problem there changes
	// what every tab shows, so it comes after the tabs were pressed as they opened.
	if err := p.pressTab(ctx, TabNames()[0], true); err != nil {
		return p.rep, err
	}
	if err := p.pressMenus(ctx); err != nil {
		return p.rep, err
	}
	if err := p.pressShortcuts(ctx); err != nil {
		return p.rep, err
	}
	return p.rep, ctx.Err()
}

// PressOptions configure PressEverything.
type PressOptions struct {
	// keepRunning leaves the work that presses start running (a run in flight stays in
	// flight); by default each press's work is cancelled once the press is checked, so that a
	// Start does not run a whole run before the next press.
	keepRunning bool
	// children lists what a widget shows (nil: the containers' and widgets' public fields,
	// which is all a real window offers; tests pass the renderers' objects, which are complete).
	children func(fyne.CanvasObject) []fyne.CanvasObject
	// sameKindLimit is how many controls of one kind other than buttons and checks are pressed
	// per tab (gallery cards, list rows…: pressing three of a hundred cards says what pressing
	// all would); 0 means 3.
	sameKindLimit int
	// Step, when set, is told of each press before it happens (progress, a log).
	Step func(what string)
	// wait waits for the work in flight (nil: the workbench's own WaitIdle, the run excepted
	// with KeepRunning).
	wait func(timeout time.Duration) error
}

// PressReport says what PressEverything pressed and which dialogs it opened and dismissed.
type PressReport struct {
	Pressed []string // "tab: kind “label”", "menu: File › Open run folder…", "shortcut: Ctrl+O"
	Dialogs []string // the first text of each dialog opened, in order
	Skipped []string // controls deliberately not pressed, with the reason
	Tabs    []string // the tabs walked ("window": around them), in order
}

// pressWait bounds the wait for one press's work: a hang is reported, not waited out.
const pressWait = 2 * time.Minute

type presser struct {
	wb  *Workbench
	o   PressOptions
	rep *PressReport
}

func (p *presser) step(what string) {
	p.rep.Pressed = append(p.rep.Pressed, what)
	if p.o.Step != nil {
		p.o.Step(what)
	}
}

// target is one control found in a tab.
type target struct {
	obj  fyne.CanvasObject
	what string
}

// pressTab presses the controls of a tab (around: those outside the tabs).
func (p *presser) pressTab(ctx context.Context, tab string, around bool) error {
	var targets []target
	p.wb.ui.onUI(func() {
		p.wb.showTab(tab)
		targets = p.collect(tab, around)
	})
	if err := p.settle(); err != nil {
		return fmt.Errorf("opening tab %s: %w", tab, err)
	}
	for _, t := range targets {
		if err := ctx.Err(); err != nil {
			return err
		}
		pressed := false
		p.wb.ui.onUI(func() {
			if !p.shown(t.obj) {
				return // an earlier press hid or replaced it
			}
			p.step(t.what)
			pressed = true
			t.obj.(fyne.Tappable).Tapped(&fyne.PointEvent{Position: fyne.NewPos(1, 1)})
			p.dismissOverlays()
		})
		if !pressed {
			continue
		}
		if err := p.settle(); err != nil {
			return fmt.Errorf("after %s: %w", t.what, err)
		}
		p.wb.ui.onUI(func() { p.wb.showTab(tab) })
	}
	return nil
}

// settle waits for the work a press started, cancels it unless it must keep running, and
// dismisses what it opened meanwhile (an error dialog after a failed job).
func (p *presser) settle() error {
	if !p.o.keepRunning {
		p.wb.ui.onUI(p.wb.Close)
	}
	wait := p.o.wait
	if wait == nil {
		wait = func(d time.Duration) error { return p.wb.waitIdle(d, p.o.keepRunning) }
	}
	err := wait(pressWait)
	p.wb.ui.onUI(p.dismissOverlays)
	return err
}

// collect lists the tab's pressable controls in the order a reader meets them: every enabled
// button and check, and up to SameKindLimit of each other tappable kind. Hyperlinks are left
// out (they open a web browser) and so are the tab bar's own buttons (the walk brings each tab
// to the front itself).
func (p *presser) collect(tab string, around bool) []target {
	var out []target
	kinds := map[string]int{}
	root, where := fyne.CanvasObject(p.wb.tabs), tab
	if around {
		root, where = p.wb.Window.Content(), "window"
	}
	p.walkSkipping(root, p.skipFor(around), func(o fyne.CanvasObject) {
		if _, ok := o.(fyne.Tappable); !ok {
			return
		}
		if d, ok := o.(fyne.Disableable); ok && d.Disabled() {
			return
		}
		kind := reflect.TypeOf(o).String()
		label := controlLabel(o)
		switch o.(type) {
		case *widget.Button, *widget.Check:
		case *widget.Hyperlink:
			p.rep.Skipped = append(p.rep.Skipped, fmt.Sprintf("%s: link %q (opens a web browser)", where, label))
			return
		case *widget.Entry, *widget.SelectEntry:
			return // typing, not pressing
		default:
			if strings.Contains(kind, "container.tabButton") || strings.Contains(kind, "widget.menuBarItem") {
				return
			}
			kinds[kind]++
			if kinds[kind] > p.o.sameKindLimit {
				return
			}
		}
		out = append(out, target{obj: o, what: fmt.Sprintf("%s: %s %q", where, strings.TrimPrefix(kind, "*"), label)})
	})
	// Buttons and checks first, then rows and cards: choosing a row (another problem, another
	// level) changes what the buttons act on, and may hide them.
	slices.SortStableFunc(out, func(a, b target) int { return cmp.Compare(rowLike(a.obj), rowLike(b.obj)) })
	p.rep.Tabs = append(p.rep.Tabs, where)
	return out
}

// rowLike is 1 for the controls that choose something (rows, cards), 0 for buttons and checks.
func rowLike(o fyne.CanvasObject) int {
	switch o.(type) {
	case *widget.Button, *widget.Check:
		return 0
	}
	return 1
}

// shown reports whether o is still in the window's visible tree.
func (p *presser) shown(o fyne.CanvasObject) bool {
	found := false
	p.walk(p.wb.Window.Content(), func(c fyne.CanvasObject) {
		if c == o {
			found = true
		}
	})
	return found
}

// walk visits the visible objects under root, parents first.
func (p *presser) walk(root fyne.CanvasObject, visit func(fyne.CanvasObject)) {
	p.walkSkipping(root, nil, visit)
}

// walkSkipping is walk without the subtree of skip.
func (p *presser) walkSkipping(root, skip fyne.CanvasObject, visit func(fyne.CanvasObject)) {
	seen := map[fyne.CanvasObject]bool{}
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if o == nil || seen[o] || !o.Visible() || (skip != nil && o == skip) {
			return
		}
		seen[o] = true
		visit(o)
		for _, c := range p.o.children(o) {
			walk(c)
		}
	}
	walk(root)
}

// skipFor is the subtree the pass around the tabs leaves out: the tabs.
func (p *presser) skipFor(around bool) fyne.CanvasObject {
	if around {
		return p.wb.tabs
	}
	return nil
}

// dismissOverlays closes every dialog and pop-up the last press opened, the way a user does:
// its Cancel (or Close, No, OK…) button, else Escape's removal. Each is recorded by its first
// text.
func (p *presser) dismissOverlays() {
	ov := p.wb.Window.Canvas().Overlays()
	for range 8 {
		top := ov.Top()
		if top == nil {
			return
		}
		p.rep.Dialogs = append(p.rep.Dialogs, p.firstText(top))
		before := len(ov.List())
		if b := p.dismissButton(top); b != nil {
			b.OnTapped()
		}
		if len(ov.List()) == before && ov.Top() == top {
			ov.Remove(top)
		}
	}
}

// dismissLabels are the buttons that close a dialog without doing its action, best first.
var dismissLabels = []string{"Cancel", "Close", "Not now", "No", "Dismiss", "OK", "Done"}

func (p *presser) dismissButton(root fyne.CanvasObject) *widget.Button {
	var buttons []*widget.Button
	p.walk(root, func(o fyne.CanvasObject) {
		if b, ok := o.(*widget.Button); ok && !b.Disabled() {
			buttons = append(buttons, b)
		}
	})
	for _, want := range dismissLabels {
		for _, b := range buttons {
			if strings.EqualFold(strings.TrimSpace(b.Text), want) {
				return b
			}
		}
	}
	return nil
}

func (p *presser) firstText(root fyne.CanvasObject) string {
	var texts []string
	p.walk(root, func(o fyne.CanvasObject) {
		if l := strings.TrimSpace(controlLabel(o)); l != "" && len(texts) < 16 {
			if r := []rune(l); len(r) > 40 {
				l = string(r[:40]) + "…"
			}
			texts = append(texts, l)
		}
	})
	return strings.Join(texts, " | ")
}

// controlLabel is the text a control shows, for the report.
func controlLabel(o fyne.CanvasObject) string {
	switch w := o.(type) {
	case *widget.Button:
		return w.Text
	case *widget.Check:
		return w.Text
	case *widget.Label:
		return w.Text
	case *widget.Hyperlink:
		return w.Text
	case *widget.Select:
		return w.Selected
	case interface{ pressLabel() string }:
		return w.pressLabel()
	}
	return ""
}

// pressMenus chooses every item of the main menu (Quit excepted: it would end the check).
func (p *presser) pressMenus(ctx context.Context) error {
	var items []struct {
		path string
		item *fyne.MenuItem
	}
	var add func(prefix string, m *fyne.Menu)
	add = func(prefix string, m *fyne.Menu) {
		for _, it := range m.Items {
			switch {
			case it.IsSeparator:
			case it.ChildMenu != nil:
				add(prefix+" › "+it.Label, it.ChildMenu)
			case it.IsQuit:
				p.rep.Skipped = append(p.rep.Skipped, "menu: "+prefix+" › "+it.Label+" (quits)")
			case it.Action != nil:
				items = append(items, struct {
					path string
					item *fyne.MenuItem
				}{prefix + " › " + it.Label, it})
			}
		}
	}
	p.wb.ui.onUI(func() {
		if mm := p.wb.Window.MainMenu(); mm != nil {
			for _, m := range mm.Items {
				add(m.Label, m)
			}
		}
	})
	for _, it := range items {
		if err := ctx.Err(); err != nil {
			return err
		}
		if it.item.Disabled {
			continue
		}
		p.wb.ui.onUI(func() {
			p.step("menu: " + it.path)
			it.item.Action()
			p.dismissOverlays()
		})
		if err := p.settle(); err != nil {
			return fmt.Errorf("after menu %s: %w", it.path, err)
		}
	}
	return nil
}
