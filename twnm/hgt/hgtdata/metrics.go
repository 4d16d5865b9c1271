package hgtdata

import (
	"math"
	"slices"
)

// AUC is the area under the ROC curve of scores for positives against scores for negatives:
// the probability that a random positive scores above a random negative, ties counting one
// half (the Mann–Whitney statistic, with tied scores given their average rank). It is NaN
// when either list is empty.
func AUC(pos, neg []float64) float64 {
	if len(pos) == 0 || len(neg) == 0 {
		return math.NaN()
	}
	all := sortedScores(pos, neg)
	// Sum of the positives' ranks (1-based), each tie group taking its average rank.
	var rankSum float64
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].s == all[i].s {
			j++
		}
		avg := float64(i+1+j) / 2 // mean of ranks i+1 … j
		for k := i; k < j; k++ {
			if all[k].pos {
				rankSum += avg
			}
		}
		i = j
	}
	np, nn := float64(len(pos)), float64(len(neg))
	return (rankSum - np*(np+1)/2) / (np * nn)
}

// Classify counts the outcome of calling every score at or above threshold positive.
func Classify(pos, neg []float64, threshold float64) (tp, fn, fp, tn int) {
	for _, s := range pos {
		if s >= threshold {
			tp++
		} else {
			fn++
		}
	}
	for _, s := range neg {
		if s >= threshold {
			fp++
		} else {
			tn++
		}
	}
	return tp, fn, fp, tn
}

// Accuracy is the fraction of positives and negatives classified correctly at threshold; NaN
// when both lists are empty.
func Accuracy(pos, neg []float64, threshold float64) float64 {
	tp, fn, fp, tn := Classify(pos, neg, threshold)
	if tp+fn+fp+tn == 0 {
		return math.NaN()
	}
	return float64(tp+tn) / float64(tp+fn+fp+tn)
}

// F1 is 2·TP/(2·TP+FP+FN) at threshold: the harmonic mean of precision and recall; 0 when
// nothing is positive, predicted or actual.
func F1(pos, neg []float64, threshold float64) float64 {
	tp, fn, fp, _ := Classify(pos, neg, threshold)
	if tp == 0 {
		return 0
	}
	return 2 * float64(tp) / float64(2*tp+fp+fn)
}

// BestThreshold returns the threshold that maximises accuracy on the given scores: the
// midpoint between two consecutive distinct scores (or just beyond the extremes), the lowest
// such threshold on a tie. It returns 0.5 when both lists are empty. The model's
// probabilities follow soft labels (w̃ can be well below 1/2), so 1/2 is not a sound
// threshold: it is chosen on the validation split and applied to the test split.
func BestThreshold(pos, neg []float64) float64 {
	if len(pos)+len(neg) == 0 {
		return 0.5
	}
	all := sortedScores(pos, neg)
	// Sweep the threshold upwards past each group of equal scores: below every score all are
	// called positive (tp = P, fp = N); passing a group turns its members negative.
	tp, fp := len(pos), len(neg)
	correct := func() int { return tp + len(neg) - fp }
	best, bestCorrect := all[0].s-1e-9*(1+math.Abs(all[0].s)), correct()
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].s == all[i].s {
			if all[j].pos {
				tp--
			} else {
				fp--
			}
			j++
		}
		if c := correct(); c > bestCorrect {
			bestCorrect = c
			if j < len(all) {
				best = all[i].s + (all[j].s-all[i].s)/2
			} else {
				best = math.Nextafter(all[i].s, math.Inf(1))
			}
		}
		i = j
	}
	return best
}

// scored is one score and whether it belongs to a positive.
type scored struct {
	s   float64
	pos bool
}

// sortedScores merges the positives' and negatives' scores in ascending order of score.
func sortedScores(pos, neg []float64) []scored {
	all := make([]scored, 0, len(pos)+len(neg))
	for _, s := range pos {
		all = append(all, scored{s, true})
	}
	for _, s := range neg {
		all = append(all, scored{s, false})
	}
	slices.SortFunc(all, func(a, b scored) int {
		switch {
		case a.s < b.s:
			return -1
		case a.s > b.s:
			return 1
		}
		return 0
	})
	return all
}
