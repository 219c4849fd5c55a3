package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Series is one system's curve in a Pareto plot: its points (tokens, metric), by budget.
type Series struct {
	Name   string
	Points plotter.XYs
	// Marker only: a single point (an answer, or the full history), drawn without a line.
	PointsOnly bool
}

// PlotSpec describes one PNG plot.
type PlotSpec struct {
	File, Title, XLabel, YLabel string
	Series                      []Series
}

// PlotSpecs returns the report's plots: the metric against tokens per answer for every system (the Pareto
// view), one curve per system over the token budgets.
func (rep *Report) PlotSpecs() []PlotSpec {
	names, groups := bySystem(rep.Rows)
	xl := "tokens per answer (mean, log scale)"
	curve := func(title, ylabel, file string, metric func(*Row, *BudgetResult) (float64, bool), rows func([]*Row) []*Row) PlotSpec {
		ps := PlotSpec{File: file, Title: title, XLabel: xl, YLabel: ylabel}
		for _, sys := range names {
			rs := rows(groups[sys])
			s := Series{Name: sys}
			for _, b := range budgetsOf(rs) {
				y := budgetStat(rs, b, metric)
				x := budgetStat(rs, b, tokensOf)
				if y.N > 0 && x.N > 0 {
					s.Points = append(s.Points, plotter.XY{X: max(x.Mean, 1), Y: y.Mean})
				}
			}
			s.PointsOnly = len(s.Points) == 1
			if len(s.Points) > 0 {
				ps.Series = append(ps.Series, s)
			}
		}
		return ps
	}
	all := func(r []*Row) []*Row { return r }
	var specs []PlotSpec
	switch rep.Bench {
	case FactConsolidation:
		ps := curve("FactConsolidation: accuracy vs tokens", "accuracy (answers) / unambiguous gold in context", "factconsolidation-pareto.png", unambiguousOf, all)
		for i := range ps.Series {
			ps.Series[i].Name += " context"
		}
		for _, sys := range names {
			a, t := mean(groups[sys], answerCorrect), mean(groups[sys], answerTokens)
			if a.N > 0 {
				ps.Series = append(ps.Series, Series{Name: sys + " /answer", Points: plotter.XYs{{X: max(t.Mean, 1), Y: a.Mean}}, PointsOnly: true})
			}
		}
		specs = append(specs, ps)
	case ConvUpdates:
		specs = append(specs, rep.convPlot(names, groups, curve))
	case BEAM:
		specs = append(specs,
			curve("BEAM: knowledge_update + contradiction_resolution co-surfacing vs tokens", "pass rate", "beam-cosurfacing.png", passOf,
				func(r []*Row) []*Row {
					return filterRows(r, func(x *Row) bool {
						return x.Category == AbilityKnowledgeUpdate || x.Category == AbilityContradictionResolution
					})
				}),
			curve("BEAM: source-message recall vs tokens", "source recall", "beam-recall.png", recallOf, all))
	default:
		specs = append(specs, curve(benchTitle(rep.Bench)+": evidence recall vs tokens", "evidence recall", rep.Bench+"-pareto.png", recallOf, all))
	}
	if rep.Reader != "" {
		ps := PlotSpec{File: rep.Bench + "-llm.png", Title: benchTitle(rep.Bench) + ": LLM QA accuracy vs tokens", XLabel: xl, YLabel: "accuracy (judge)"}
		for _, sys := range names {
			a, t := mean(groups[sys], llmScore), mean(groups[sys], llmTokens)
			if a.N > 0 {
				ps.Series = append(ps.Series, Series{Name: sys, Points: plotter.XYs{{X: max(t.Mean, 1), Y: a.Mean}}, PointsOnly: true})
			}
		}
		specs = append(specs, ps)
	}
	return slices.DeleteFunc(specs, func(p PlotSpec) bool { return len(p.Series) == 0 })
}

// RenderPlot writes a plot as a PNG into dir.
func RenderPlot(dir string, ps PlotSpec) error {
	p := plot.New()
	p.Title.Text = ps.Title
	p.X.Label.Text = ps.XLabel
	p.Y.Label.Text = ps.YLabel
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Y.Min, p.Y.Max = 0, 1.05
	p.Add(plotter.NewGrid())
	// The legend is drawn beside the plot, never over its points.
	leg := plot.NewLegend()
	leg.Top, leg.Left = true, true
	leg.ThumbnailWidth = vg.Points(20)
	leg.TextStyle.Font.Size = vg.Points(9)
	minX, maxX := 1e18, 1.0
	for i, s := range ps.Series {
		for _, pt := range s.Points {
			minX, maxX = min(minX, pt.X), max(maxX, pt.X)
		}
		color := plotutil.Color(i)
		sc, err := plotter.NewScatter(s.Points)
		if err != nil {
			return fmt.Errorf("plot %s: %w", ps.File, err)
		}
		sc.GlyphStyle.Color = color
		sc.GlyphStyle.Radius = vg.Points(3.5)
		sc.GlyphStyle.Shape = plotutil.Shape(i)
		p.Add(sc)
		if !s.PointsOnly && len(s.Points) > 1 {
			l, err := plotter.NewLine(s.Points)
			if err != nil {
				return fmt.Errorf("plot %s: %w", ps.File, err)
			}
			l.LineStyle.Color = color
			l.LineStyle.Width = vg.Points(1.5)
			p.Add(l)
			leg.Add(s.Name, l, sc)
		} else {
			leg.Add(s.Name, sc)
		}
	}
	p.X.Min, p.X.Max = max(minX/1.5, 1), maxX*1.5
	const width, height, legendWidth = 9 * vg.Inch, 5 * vg.Inch, 2.3 * vg.Inch
	img := vgimg.New(width, height)
	dc := draw.New(img)
	p.Draw(draw.Crop(dc, 0, -legendWidth, 0, 0))
	leg.Draw(draw.Crop(dc, width-legendWidth+vg.Points(8), 0, 0, -vg.Points(30)))
	f, err := os.Create(filepath.Join(dir, ps.File))
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("plot %s: %w", ps.File, err)
	}
	return f.Close()
}
