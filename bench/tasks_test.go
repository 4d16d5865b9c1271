package bench

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/toolworld"
)

func TestReadTasksRoundTripsGeneratedTasks(t *testing.T) {
	want, err := GenerateTasks(12, 1, "")
	require.NoError(t, err)
	require.Len(t, want, 12)

	// Written as navi-toolworld writes them: one JSON object a line.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, task := range want {
		require.NoError(t, enc.Encode(task))
	}
	path := filepath.Join(t.TempDir(), "tasks.jsonl")
	require.NoError(t, os.WriteFile(path, b.Bytes(), 0o644))

	got, err := LoadTasks(path)
	require.NoError(t, err)
	require.Len(t, got, len(want))
	for i := range want {
		assert.Equal(t, want[i].ID, got[i].ID)
		assert.Equal(t, want[i].Difficulty, got[i].Difficulty)
		assert.Equal(t, want[i].GoldChain, got[i].GoldChain)
		assert.Equal(t, want[i].GoldFlow, got[i].GoldFlow)
		// Numbers come back as float64 and still compare equal.
		for k, v := range want[i].Expected {
			assert.True(t, Equal(v, got[i].Expected[k]), "%s %s", want[i].ID, k)
		}
	}
}

func TestReadTasks(t *testing.T) {
	cases := []struct {
		name    string
		in      string
		ids     []string
		diffs   []string
		wantErr string
	}{
		{
			name:  "blank lines skipped, unknown fields ignored",
			in:    "\n" + `{"id":"a","query":"q","difficulty":"easy","gold_chain":["x"],"source":"other"}` + "\n\n" + `{"id":"b","query":"q","difficulty":"hard","gold_chain":["x","y","z"]}` + "\n",
			ids:   []string{"a", "b"},
			diffs: []string{"easy", "hard"},
		},
		{
			name:  "difficulty inferred, ID from the line",
			in:    `{"query":"q","gold_chain":["x"]}` + "\n" + `{"id":"m","query":"q","gold_chain":["x","y"]}` + "\n" + `{"id":"h","query":"q","gold_chain":["x","y","z","w"]}`,
			ids:   []string{"t.jsonl:1", "m", "h"},
			diffs: []string{"easy", "medium", "hard"},
		},
		{name: "empty input", in: "", ids: nil},
		{name: "malformed JSON", in: `{"id":"a","query":"q","gold_chain":["x"]}` + "\n\n" + `{"id":`, wantErr: "t.jsonl:3: malformed task"},
		{name: "wrong type", in: `{"id":"a","query":"q","gold_chain":"x"}`, wantErr: "t.jsonl:1: malformed task"},
		{name: "no gold chain", in: `{"id":"a","query":"q"}`, wantErr: "t.jsonl:1: task a: no gold_chain"},
		{name: "no query", in: `{"id":"a","gold_chain":["x"]}`, wantErr: "t.jsonl:1: task a: no query"},
		{name: "empty API", in: `{"id":"a","query":"q","gold_chain":["x",""]}`, wantErr: "gold_chain[1] is empty"},
		{name: "unknown difficulty", in: `{"id":"a","query":"q","difficulty":"extreme","gold_chain":["x"]}`, wantErr: `t.jsonl:1: task a: unknown difficulty "extreme"`},
		{
			name:    "duplicate ID",
			in:      `{"id":"a","query":"q","gold_chain":["x"]}` + "\n" + `{"id":"a","query":"q","gold_chain":["y"]}`,
			wantErr: "t.jsonl:2: task a: duplicate ID, first on line 1",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := ReadTasks(strings.NewReader(c.in), "t.jsonl")
			if c.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.wantErr)
				return
			}
			require.NoError(t, err)
			var ids, diffs []string
			for _, task := range got {
				ids = append(ids, task.ID)
				diffs = append(diffs, task.Difficulty)
			}
			assert.Equal(t, c.ids, ids)
			assert.Equal(t, c.diffs, diffs)
		})
	}
}

func TestLoadTasksMissingFile(t *testing.T) {
	_, err := LoadTasks(filepath.Join(t.TempDir(), "none.jsonl"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "none.jsonl")
}

func TestGenerateTasks(t *testing.T) {
	hard, err := GenerateTasks(4, 7, toolworld.DifficultyHard)
	require.NoError(t, err)
	require.Len(t, hard, 4)
	for _, task := range hard {
		assert.Equal(t, toolworld.DifficultyHard, task.Difficulty)
		assert.GreaterOrEqual(t, len(task.GoldChain), 3)
	}
	again, err := GenerateTasks(4, 7, toolworld.DifficultyHard)
	require.NoError(t, err)
	assert.Equal(t, hard, again, "same options, same tasks")

	_, err = GenerateTasks(1, 1, "extreme")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "bench:")
}
