package app

import (
	"fmt"
	"math"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/app/widgets"
	"pcgwb/problems"
	"pcgwb/problems/space"
)

// controlEditor sets a problem's control target with one slider per field, fitted to the
// field's range (integers step by one). The editor judges levels against it, and the Sample
// tab uses it for every item when useForSamples is on.
type controlEditor struct {
	useForSamples *widget.Check
	fields        []*controlField
	// onChanged is called when the user (or setControl) changes a value.
	onChanged func()

	fixed  []space.Field // Const fields: part of the control, not adjustable
	box    *fyne.Container
	note   *widget.Label
	root   fyne.CanvasObject
	hasAny bool
}

// controlField is one adjustable field of the control.
type controlField struct {
	key    string
	space  space.Space // space.Int or space.Float
	slider *widget.Slider
	Value  *widget.Label
}

// value reads the slider as the field's type.
func (f *controlField) value() any {
	if _, ok := f.space.(space.Int); ok {
		return int(math.Round(f.slider.Value))
	}
	return f.slider.Value
}

func (f *controlField) showValue() {
	switch v := f.value().(type) {
	case int:
		f.Value.SetText(strconv.Itoa(v))
	case float64:
		f.Value.SetText(strconv.FormatFloat(v, 'f', 2, 64))
	}
}

func newControlEditor() *controlEditor {
	ce := &controlEditor{}
	ce.useForSamples = widget.NewCheck("use for samples", nil)
	ce.note = widget.NewLabel("")
	ce.note.Wrapping = fyne.TextWrapWord
	ce.note.Importance = widget.LowImportance
	ce.box = container.NewVBox()
	ce.root = container.NewVBox(ce.box, ce.note, ce.useForSamples)
	return ce
}

// Content is the editor's root object.
func (ce *controlEditor) Content() fyne.CanvasObject { return ce.root }

// setProblem builds the sliders for p's control space (nil: none) and sets them to the
// middle of their ranges.
func (ce *controlEditor) setProblem(p problems.Problem) {
	ce.fields, ce.fixed, ce.hasAny = nil, nil, false
	ce.box.RemoveAll()
	ce.note.SetText("")
	ce.useForSamples.SetChecked(false)
	if p == nil {
		ce.useForSamples.Disable()
		return
	}
	d, ok := p.ControlSpace().(space.Dict)
	if !ok {
		ce.note.SetText("This control space has no sliders.")
		ce.useForSamples.Disable()
		return
	}
	for _, fld := range d {
		switch s := fld.Space.(type) {
		case space.Int:
			ce.addField(fld.Key, s, float64(s.Min), float64(s.Max-1), 1)
		case space.Float:
			ce.addField(fld.Key, s, s.Min, s.Max, (s.Max-s.Min)/100)
		case space.Const:
			ce.fixed = append(ce.fixed, fld)
		default:
			ce.note.SetText(fmt.Sprintf("%s: not adjustable here", fld.Key))
		}
	}
	ce.hasAny = len(ce.fields) > 0 || len(ce.fixed) > 0
	if len(d) == 0 {
		ce.note.SetText("This problem has no control.")
	}
	if ce.hasAny {
		ce.useForSamples.Enable()
	} else {
		ce.useForSamples.Disable()
	}
	ce.box.Refresh()
}

func (ce *controlEditor) addField(key string, s space.Space, lo, hi, step float64) {
	f := &controlField{key: key, space: s}
	f.slider = widget.NewSlider(lo, math.Max(hi, lo))
	f.slider.Step = step
	f.Value = widget.NewLabel("")
	f.Value.TextStyle = fyne.TextStyle{Monospace: true, Bold: true}
	f.slider.SetValue(lo + math.Round((hi-lo)/2/step)*step)
	f.showValue()
	f.slider.OnChanged = func(float64) {
		f.showValue()
		if ce.onChanged != nil {
			ce.onChanged()
		}
	}
	name := widget.NewLabel(key)
	name.TextStyle = fyne.TextStyle{Monospace: true}
	rangeText := widget.NewLabel(fmt.Sprintf("%s–%s", formatNumber(lo), formatNumber(hi)))
	rangeText.SizeName = theme.SizeNameCaptionText
	rangeText.Importance = widget.LowImportance
	ce.box.Add(container.NewBorder(nil, nil, name, container.NewHBox(rangeText, widgets.FixedWidth(44, f.Value)), nil))
	ce.box.Add(f.slider)
	ce.fields = append(ce.fields, f)
}

// Control returns the control the sliders set, with the space's key order and value types, or
// nil when the problem has no adjustable control.
func (ce *controlEditor) Control() problems.Control {
	if !ce.hasAny {
		return nil
	}
	out := map[string]any{}
	for _, f := range ce.fields {
		out[f.key] = f.value()
	}
	for _, f := range ce.fixed {
		out[f.Key] = f.Space.(space.Const).Value
	}
	return out
}

// setControl moves the sliders to c's values (fields c lacks keep theirs).
func (ce *controlEditor) setControl(c problems.Control) {
	m, ok := c.(map[string]any)
	if !ok {
		return
	}
	changed := false
	for _, f := range ce.fields {
		switch v := m[f.key].(type) {
		case int:
			f.slider.Value = float64(v)
		case float64:
			f.slider.Value = v
		default:
			continue
		}
		f.slider.Refresh()
		f.showValue()
		changed = true
	}
	if changed && ce.onChanged != nil {
		ce.onChanged()
	}
}

// Field returns the field named key, or nil.
func (ce *controlEditor) Field(key string) *controlField {
	for _, f := range ce.fields {
		if f.key == key {
			return f
		}
	}
	return nil
}
