package ad

import (
	"fmt"
	"math"
)

// Adam is the Adam optimiser with bias correction and optional decoupled weight decay
// (AdamW). LR is the learning rate; Beta1, Beta2 and Eps are the usual moment decay rates and
// denominator guard, and a zero value selects the common default (0.9, 0.999, 1e-8), so
// Adam{LR: 1e-3} is a working optimiser. WeightDecay multiplies each weight by (1 − LR·WeightDecay)
// before the Adam update, independently of the gradient (Loshchilov & Hutter); zero disables it.
// To exempt biases and norms from decay, step them with a second Adam whose WeightDecay is zero.
//
// The moment estimates are kept per Param, keyed by pointer, with a per-Param step count, so
// params may join later or be stepped on different schedules. Adam is not safe for concurrent use.
type Adam struct {
	LR, Beta1, Beta2, Eps, WeightDecay float64

	state map[*Param]*adamState
}

type adamState struct {
	m, v []float64 // first and second moment estimates
	t    int       // steps taken
}

// Step applies one update to each Param from its Grad and then zeroes the Grad. Each Param
// should appear once in params; Params with a nil Grad are skipped.
func (o *Adam) Step(params []*Param) {
	b1, b2, eps := o.Beta1, o.Beta2, o.Eps
	if b1 == 0 {
		b1 = 0.9
	}
	if b2 == 0 {
		b2 = 0.999
	}
	if eps == 0 {
		eps = 1e-8
	}
	if o.state == nil {
		o.state = make(map[*Param]*adamState)
	}
	for _, p := range params {
		if p.Grad == nil {
			continue
		}
		op := fmt.Sprintf("Adam.Step %q", p.Name)
		w, g := data(op, p.Value), data(op, p.Grad)
		if len(w) != len(g) {
			fail("%s: Value %s, Grad %s", op, shape(p.Value), shape(p.Grad))
		}
		st := o.state[p]
		if st == nil {
			st = &adamState{m: make([]float64, len(w)), v: make([]float64, len(w))}
			o.state[p] = st
		}
		if len(st.m) != len(w) {
			fail("%s: Param resized from %d to %d elements", op, len(st.m), len(w))
		}
		st.t++
		// Fold the bias corrections into the step size and the denominator:
		// w −= LR·m̂/(√v̂+eps) with m̂ = m/c1, v̂ = v/c2.
		c1 := 1 - math.Pow(b1, float64(st.t))
		c2 := 1 - math.Pow(b2, float64(st.t))
		step := o.LR / c1
		sc2 := math.Sqrt(c2)
		decay := 1 - o.LR*o.WeightDecay
		m, v := st.m, st.v
		for i, gi := range g {
			m[i] = b1*m[i] + (1-b1)*gi
			v[i] = b2*v[i] + (1-b2)*gi*gi
			w[i] = decay*w[i] - step*m[i]/(math.Sqrt(v[i])/sc2+eps)
		}
		clear(g)
	}
}
