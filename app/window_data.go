package app

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"pcgwb/internal/safeio"
	"pcgwb/problems"
	"pcgwb/problems/data"
)

// dataOffer is the panel shown for a problem whose data files are missing: "Get the data…"
// downloads them (licence shown first, progress while it runs, every file checked against its
// SHA-256), "Import a folder…" copies them from a folder the user picks. Either way the
// problem becomes usable without a restart.
type dataOffer struct {
	message      *widget.Label
	license      *widget.Label
	getButton    *widget.Button
	importButton *widget.Button
	progress     *widget.ProgressBar
	status       *widget.Label
	content      fyne.CanvasObject
	wb           *Workbench
	problem      string
	dialog       dialog.Dialog

	mu      sync.Mutex
	running bool
	cancel  context.CancelFunc
}

// newDataOffer builds the panel for problem, whose error err says which files are missing.
func newDataOffer(wb *Workbench, problem string, err error) *dataOffer {
	o := &dataOffer{wb: wb, problem: problem}
	o.message = widget.NewLabel(fmt.Sprintf("%s needs data files of the reference benchmark that are not on this machine (%s).",
		problem, missingSummary(err)))
	o.message.Wrapping = fyne.TextWrapWord
	o.license = widget.NewLabel(data.License)
	o.license.SizeName = theme.SizeNameCaptionText
	o.getButton = widget.NewButton("Get the data…", o.download)
	o.getButton.Importance = widget.HighImportance
	o.importButton = widget.NewButton("Import a folder…", o.pickFolder)
	o.progress = widget.NewProgressBar()
	o.progress.Hide()
	o.status = widget.NewLabel("Downloading accepts the licence above.")
	o.status.Wrapping = fyne.TextWrapWord
	licence := container.NewVScroll(o.license)
	licence.SetMinSize(fyne.NewSize(560, 160))
	o.content = container.NewBorder(o.message,
		container.NewVBox(o.progress, o.status, container.NewHBox(o.getButton, o.importButton)), nil, nil, licence)
	return o
}

// Content is the panel's widget tree.
func (o *dataOffer) Content() fyne.CanvasObject { return o.content }

func missingSummary(err error) string {
	if m, ok := data.IsMissing(err); ok {
		return m.Summary()
	}
	return safeio.ExcerptString(err.Error())
}

// offerData shows the data panel in a dialog when name cannot be made for want of data files
// (the call site is Workbench.activate). It returns the panel, nil when err is another error.
func (wb *Workbench) offerData(name string, err error) *dataOffer {
	if _, ok := data.IsMissing(err); !ok || wb.Window == nil {
		return nil
	}
	o := newDataOffer(wb, name, err)
	o.dialog = dialog.NewCustom("Data for "+name, "Not now", o.content, wb.Window)
	o.dialog.SetOnClosed(o.Cancel)
	o.dialog.Show()
	wb.dataOffer = o
	return o
}

// download fetches and installs the data off the UI goroutine, with progress.
func (o *dataOffer) download() {
	o.start("Downloading…", func(ctx context.Context) (*data.Report, error) {
		return data.Download(ctx, o.wb.opts.DataSource, func(read, total int64) {
			fyne.Do(func() {
				if total > 0 {
					o.progress.SetValue(float64(read) / float64(total))
				}
				o.status.SetText("Downloading… " + safeio.HumanSize(read))
			})
		})
	})
}

// Import copies the data files found under dir (the folder a user picked).
func (o *dataOffer) Import(dir string) {
	o.start("Importing "+dir+"…", func(context.Context) (*data.Report, error) { return data.Import(dir) })
}

func (o *dataOffer) pickFolder() {
	o.wb.pickFolder("Import data from a folder", "Import", "", o.Import)
}

// Cancel stops a download in flight.
func (o *dataOffer) Cancel() {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.cancel != nil {
		o.cancel()
	}
}

// Running reports whether a download or import is in flight.
func (o *dataOffer) Running() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.running
}

func (o *dataOffer) start(label string, work func(context.Context) (*data.Report, error)) {
	o.mu.Lock()
	if o.running {
		o.mu.Unlock()
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	o.running, o.cancel = true, cancel
	o.mu.Unlock()
	o.getButton.Disable()
	o.importButton.Disable()
	o.progress.SetValue(0)
	o.progress.Show()
	o.status.SetText(label)
	o.wb.ui.goJob(func() {
		rep, err := work(ctx)
		cancel()
		fyne.Do(func() { o.finish(rep, err) })
	})
}

// finish reports the outcome; on success the picker's marks are refreshed and the problem is
// made again, now with its data.
func (o *dataOffer) finish(rep *data.Report, err error) {
	o.mu.Lock()
	o.running = false
	o.mu.Unlock()
	o.getButton.Enable()
	o.importButton.Enable()
	o.progress.Hide()
	if f := o.wb.opts.OnData; f != nil {
		f(o.problem, rep, err)
	}
	if err != nil {
		msg := err.Error()
		if rep != nil && len(rep.Invalid) > 0 {
			var bad []string
			for _, f := range rep.Invalid {
				bad = append(bad, f.Error())
			}
			msg += ": " + strings.Join(bad, "; ")
		}
		o.status.SetText("✗ " + msg)
		return
	}
	o.status.SetText(fmt.Sprintf("✓ %d data file(s) installed in %s", len(rep.Copied), rep.Dest))
	o.wb.refreshDataMarks()
	if problems.Unavailable(o.problem) == nil {
		if o.dialog != nil {
			o.dialog.SetOnClosed(func() {})
			o.dialog.Hide()
		}
		o.wb.activate(o.problem)
	}
}

// refreshDataMarks re-checks which problems still need data and redraws the picker.
func (wb *Workbench) refreshDataMarks() {
	p := wb.picker
	for _, n := range p.names {
		p.missing[n] = problems.Unavailable(n) != nil
	}
	p.list.Refresh()
}
