package app

import (
	"reflect"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// The real window's walk for PressEverything: what a container or widget shows through its
// public fields, since the renderers belong to the driver.

// publicChildren lists what a container or widget shows through its public fields: the walk a
// real window allows, where the renderers are the driver's own.
func publicChildren(o fyne.CanvasObject) []fyne.CanvasObject {
	switch w := o.(type) {
	case *fyne.Container:
		return w.Objects
	case *container.AppTabs:
		if w.Selected() != nil {
			return []fyne.CanvasObject{w.Selected().Content}
		}
	case *container.DocTabs:
		if w.Selected() != nil {
			return []fyne.CanvasObject{w.Selected().Content}
		}
	case *container.Split:
		return []fyne.CanvasObject{w.Leading, w.Trailing}
	case *container.Scroll:
		return []fyne.CanvasObject{w.Content}
	case *widget.PopUp:
		return []fyne.CanvasObject{w.Content}
	case *widget.Card:
		return []fyne.CanvasObject{w.Content}
	case *widget.Accordion:
		var out []fyne.CanvasObject
		for _, it := range w.Items {
			if it.Open {
				out = append(out, it.Detail)
			}
		}
		return out
	case *widget.Form:
		var out []fyne.CanvasObject
		for _, it := range w.Items {
			out = append(out, it.Widget)
		}
		return out
	}
	return exportedChildren(o)
}

// canvasObjectType is fyne.CanvasObject's interface type.
var canvasObjectType = reflect.TypeFor[fyne.CanvasObject]()

// exportedChildren is what a widget holds in its exported fields (an overlay's Content, a
// custom widget's parts): the children a real window's walk can see beyond the containers.
// Embedded fields (the widget's base) are not children.
func exportedChildren(o fyne.CanvasObject) []fyne.CanvasObject {
	v := reflect.ValueOf(o)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	v = v.Elem()
	var out []fyne.CanvasObject
	for i := range v.NumField() {
		f, fv := v.Type().Field(i), v.Field(i)
		if !f.IsExported() || f.Anonymous {
			continue
		}
		switch {
		case fv.Kind() == reflect.Slice && fv.Type().Elem() == canvasObjectType:
			for j := range fv.Len() {
				if c, ok := fv.Index(j).Interface().(fyne.CanvasObject); ok && c != nil {
					out = append(out, c)
				}
			}
		case f.Type.Implements(canvasObjectType) && (fv.Kind() != reflect.Pointer && fv.Kind() != reflect.Interface || !fv.IsNil()):
			if c, ok := fv.Interface().(fyne.CanvasObject); ok && c != nil {
				out = append(out, c)
			}
		}
	}
	return out
}
