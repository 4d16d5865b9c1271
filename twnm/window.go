package twnm

import "time"

// window counts successes and failures per day over a sliding window of days, for the recent
// counts of Eq. 13 and Eq. 14. Days are UTC calendar days since the Unix epoch.
type window struct {
	days map[int64][2]int64 // day -> [success, total]
}

func dayOf(t time.Time) int64 { return t.UTC().Unix() / 86400 }

func (w *window) add(t time.Time, success bool) {
	if w.days == nil {
		w.days = map[int64][2]int64{}
	}
	c := w.days[dayOf(t)]
	if success {
		c[0]++
	}
	c[1]++
	w.days[dayOf(t)] = c
}

// revise takes back a success of t's day: the call stays counted, as a failure.
func (w *window) revise(t time.Time) {
	c := w.days[dayOf(t)]
	c[0] = max(0, c[0]-1)
	if w.days != nil {
		w.days[dayOf(t)] = c
	}
}

// counts returns the successes and the total within the days days that end with now's day, and
// forgets older days.
func (w *window) counts(now time.Time, days int) (success, total int64) {
	last := dayOf(now)
	first := last - int64(days) + 1
	for d, c := range w.days {
		if d < first {
			delete(w.days, d)
			continue
		}
		if d <= last {
			success += c[0]
			total += c[1]
		}
	}
	return success, total
}

// set replaces the counts of one day.
func (w *window) set(day, success, total int64) {
	if w.days == nil {
		w.days = map[int64][2]int64{}
	}
	w.days[day] = [2]int64{success, total}
}

// SetRecent restores the sliding-window counts of one UTC day (days since the Unix epoch) of
// the node, as a store that keeps the window (Neo4j's day buckets) reads them back.
func (n *Node) SetRecent(day, success, total int64) { n.recent.set(day, success, total) }

// SetRecent restores the sliding-window counts of one UTC day of the edge; see Node.SetRecent.
func (e *Edge) SetRecent(day, success, total int64) { e.recent.set(day, success, total) }
