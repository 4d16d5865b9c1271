package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Names of the plots WritePlots writes.
const (
	PlotTSRByDifficulty = "tsr_by_difficulty.png"
	PlotLearningCurve   = "learning_curve.png"
	PlotFailureScenario = "failure_scenario.png"
)

// Plot sizes, and the top of the percentage axes (above 100 to leave room for the legend).
const (
	plotWidth  = 8 * vg.Inch
	plotHeight = 4.5 * vg.Inch
	legendRoom = 118
)

// WritePlots writes the report's PNG plots into dir and returns their paths: the grouped bar
// chart of TSR per variant per difficulty always, the learning curve (TSR and Steps per
// batch) when the run had batches, and the failure-scenario chart (TSR per phase) when it
// had phases.
func WritePlots(dir string, r Report) ([]string, error) {
	var paths []string
	save := func(name string, write func(string) error) error {
		path := filepath.Join(dir, name)
		if err := write(path); err != nil {
			return fmt.Errorf("plot %s: %w", name, err)
		}
		paths = append(paths, path)
		return nil
	}
	// A run stopped before its first task (a partial run) has no bar to draw.
	if p := tsrByDifficulty(r); p != nil {
		if err := save(PlotTSRByDifficulty, func(path string) error {
			return p.Save(plotWidth, plotHeight, path)
		}); err != nil {
			return paths, err
		}
	}
	if r.Batches > 1 {
		if err := save(PlotLearningCurve, func(path string) error { return learningCurve(r, path) }); err != nil {
			return paths, err
		}
	}
	if len(r.Phases) > 0 {
		if err := save(PlotFailureScenario, func(path string) error {
			return failureScenario(r).Save(plotWidth, plotHeight, path)
		}); err != nil {
			return paths, err
		}
	}
	return paths, nil
}

// tsrByDifficulty is the grouped bar chart of TSR (%) per difficulty, a bar per variant.
// Difficulties without tasks are left out; nil when no variant ran a task.
func tsrByDifficulty(r Report) *plot.Plot {
	var cats []string
	for _, d := range Difficulties {
		for _, vm := range r.Metrics {
			if vm.ByDifficulty(d).Tasks > 0 {
				cats = append(cats, d)
				break
			}
		}
	}
	if len(cats) == 0 {
		return nil
	}
	series := make([]bars, len(r.Metrics))
	for i, vm := range r.Metrics {
		series[i].name = vm.Variant
		for _, d := range cats {
			series[i].values = append(series[i].values, 100*vm.ByDifficulty(d).TSR)
		}
	}
	return groupedBars("Task success rate by difficulty", "Difficulty", "TSR (%)", cats, series)
}

// failureScenario is the grouped bar chart of TSR (%) per phase, a bar per variant.
func failureScenario(r Report) *plot.Plot {
	cats := make([]string, len(r.Phases))
	for i, p := range r.Phases {
		cats[i] = p.Name
	}
	series := make([]bars, len(r.Metrics))
	for i, vm := range r.Metrics {
		series[i].name = vm.Variant
		for _, g := range vm.Phases {
			series[i].values = append(series[i].values, 100*g.TSR)
		}
	}
	return groupedBars("Failure scenario: task success rate by phase", "Phase", "TSR (%)", cats, series)
}

// bars is one variant's bars of a grouped bar chart, a value per category.
type bars struct {
	name   string
	values []float64
}

// groupedBars draws a bar per series within each category, side by side.
func groupedBars(title, x, y string, cats []string, series []bars) *plot.Plot {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, x, y
	// Room above 100% for the legend, so that it never covers a full bar.
	p.Y.Min, p.Y.Max = 0, legendRoom
	p.Legend.Top = true
	grid := plotter.NewGrid()
	grid.Vertical.Color = nil
	p.Add(grid)
	// Bar widths are canvas lengths, not data units: share about 70% of the room a category
	// gets among its bars.
	n := max(1, len(series))
	width := vg.Length(0.7*float64(plotWidth-vg.Inch)/float64(max(1, len(cats)))) / vg.Length(n)
	for i, s := range series {
		b, err := plotter.NewBarChart(plotter.Values(s.values), width)
		if err != nil {
			// Only NaN or infinite values fail, which metrics never are; draw what remains.
			continue
		}
		b.Color = plotutil.Color(i)
		b.LineStyle.Width = 0
		b.Offset = vg.Length(float64(i)-float64(n-1)/2) * width
		p.Add(b)
		p.Legend.Add(s.name, b)
	}
	p.NominalX(cats...)
	// Half a category of margin on each side, or the outer bars are cut at the axis ends.
	p.X.Min, p.X.Max = -0.5, float64(len(cats))-0.5
	return p
}

// learningCurve draws TSR (%) and Steps per batch, a line per variant, one panel above the
// other, into a PNG at path.
func learningCurve(r Report, path string) error {
	tsr := plot.New()
	tsr.Title.Text, tsr.Y.Label.Text = "Learning curve", "TSR (%)"
	tsr.Y.Min, tsr.Y.Max = 0, legendRoom
	steps := plot.New()
	steps.X.Label.Text, steps.Y.Label.Text = "Batch", "Steps per solved task"
	steps.Y.Min = 0
	for _, p := range []*plot.Plot{tsr, steps} {
		p.Add(plotter.NewGrid())
		p.Legend.Top = true
		p.X.Min, p.X.Max = 1, float64(max(2, r.Batches))
		p.X.Tick.Marker = batchTicks{}
	}
	for i, vm := range r.Metrics {
		var a, b plotter.XYs
		for _, g := range vm.Batches {
			x, _ := strconv.Atoi(g.Group)
			a = append(a, plotter.XY{X: float64(x), Y: 100 * g.TSR})
			if g.Succeeded > 0 { // no solved task, no steps: leave a gap in the line
				b = append(b, plotter.XY{X: float64(x), Y: g.Steps})
			}
		}
		if err := addLine(tsr, vm.Variant, a, i, true); err != nil {
			return err
		}
		if err := addLine(steps, vm.Variant, b, i, false); err != nil {
			return err
		}
	}
	img := vgimg.New(plotWidth, 2*plotHeight)
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 2, Cols: 1, PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(8), PadY: vg.Points(8)}
	canvases := plot.Align([][]*plot.Plot{{tsr}, {steps}}, tiles, dc)
	tsr.Draw(canvases[0][0])
	steps.Draw(canvases[1][0])
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// addLine adds a variant's line with points, in the variant's colour and shape.
func addLine(p *plot.Plot, name string, xys plotter.XYs, i int, legend bool) error {
	if len(xys) == 0 {
		return nil
	}
	l, s, err := plotter.NewLinePoints(xys)
	if err != nil {
		return fmt.Errorf("line %s: %w", name, err)
	}
	c := plotutil.Color(i)
	l.Color, s.Color = c, c
	s.Shape = plotutil.Shape(i)
	p.Add(l, s)
	if legend {
		p.Legend.Add(name, l, s)
	}
	return nil
}

// batchTicks labels every batch number, for up to 20 batches (then every few).
type batchTicks struct{}

// Ticks returns the integer ticks between min and max.
func (batchTicks) Ticks(lo, hi float64) []plot.Tick {
	step := max(1, int(hi-lo+1)/20)
	var ts []plot.Tick
	for x := int(lo); float64(x) <= hi; x += step {
		ts = append(ts, plot.Tick{Value: float64(x), Label: strconv.Itoa(x)})
	}
	return ts
}
