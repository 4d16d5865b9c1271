package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/naviagent/navi/toolworld"
)

// maxLine bounds one JSONL line; a tool-world task is well under a kilobyte.
const maxLine = 4 << 20

// LoadTasks reads a JSONL file of tasks (see ReadTasks).
func LoadTasks(path string) ([]toolworld.Task, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("load tasks: %w", err)
	}
	defer f.Close()
	return ReadTasks(f, path)
}

// ReadTasks reads tasks, one JSON object a line, as `navi-toolworld tasks` writes them;
// name (the file name) prefixes errors, which also give the line. Blank lines are skipped
// and unknown fields ignored, so any JSONL of tasks with gold chains loads. Each task needs
// a query and a gold chain; a missing difficulty is inferred from the chain's length (one
// API easy, two medium, more hard, as the tool world generates them), a missing ID becomes
// "<name>:<line>", and IDs must be distinct because outcomes are reported by ID.
func ReadTasks(r io.Reader, name string) ([]toolworld.Task, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	var tasks []toolworld.Task
	seen := map[string]int{}
	for line := 1; sc.Scan(); line++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var t toolworld.Task
		if err := json.Unmarshal(b, &t); err != nil {
			return nil, fmt.Errorf("%s:%d: malformed task: %w", name, line, err)
		}
		if t.ID == "" {
			t.ID = fmt.Sprintf("%s:%d", name, line)
		}
		if err := check(&t); err != nil {
			return nil, fmt.Errorf("%s:%d: task %s: %w", name, line, t.ID, err)
		}
		if prev, ok := seen[t.ID]; ok {
			return nil, fmt.Errorf("%s:%d: task %s: duplicate ID, first on line %d", name, line, t.ID, prev)
		}
		seen[t.ID] = line
		tasks = append(tasks, t)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: read tasks after %d: %w", name, len(tasks), err)
	}
	return tasks, nil
}

// check validates one loaded task and fills in its difficulty.
func check(t *toolworld.Task) error {
	if t.Query == "" {
		return fmt.Errorf("no query")
	}
	if len(t.GoldChain) == 0 {
		return fmt.Errorf("no gold_chain")
	}
	for i, api := range t.GoldChain {
		if api == "" {
			return fmt.Errorf("gold_chain[%d] is empty", i)
		}
	}
	switch t.Difficulty {
	case toolworld.DifficultyEasy, toolworld.DifficultyMedium, toolworld.DifficultyHard:
	case "":
		t.Difficulty = inferDifficulty(len(t.GoldChain))
	default:
		return fmt.Errorf("unknown difficulty %q, want easy, medium or hard", t.Difficulty)
	}
	return nil
}

func inferDifficulty(n int) string {
	switch n {
	case 1:
		return toolworld.DifficultyEasy
	case 2:
		return toolworld.DifficultyMedium
	}
	return toolworld.DifficultyHard
}

// GenerateTasks generates tasks in process, exactly as `navi-toolworld tasks -n n -seed seed`
// does; difficulty is easy, medium, hard, or all (or empty) to cycle through the three.
func GenerateTasks(n int, seed uint64, difficulty string) ([]toolworld.Task, error) {
	tasks, err := toolworld.GenerateTasks(toolworld.TaskOptions{Seed: seed, N: n, Difficulty: difficulty})
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	return tasks, nil
}
