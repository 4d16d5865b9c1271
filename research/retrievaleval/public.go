package retrievaleval

import (
	"bufio"
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/naviagent/navi/twnm"
	"github.com/naviagent/navi/twnm/catalogs"
)

// Keys of the sets of public specs (see Public and PublicDev).
const (
	KeyPublic    = "public"
	KeyPublicDev = "publicdev"
)

// publicQuestions are the held-out questions, one JSON Lines file per spec, named by the
// spec's key in publicSpecs; publicDevQuestions are the dev questions, likewise for
// publicDevSpecs.
//
//go:embed public/*.jsonl
var publicQuestions embed.FS

//go:embed publicdev/*.jsonl
var publicDevQuestions embed.FS

// publicSpecs are the public specs the held-out questions are about, by key, as files under
// the importer's corpus of public specs (twnm/catalogs/testdata/specs; origins and licenses in
// its README.md).
var publicSpecs = map[string]string{
	"box":        "box/openapi.json.gz",
	"discord":    "discord/openapi.json.gz",
	"figma":      "figma/openapi.yaml.gz",
	"googlemaps": "googlemaps/google-maps-platform-openapi3.json.gz",
	"slack":      "slack/slack_web_openapi_v2_without_examples.json.gz",
}

// publicDevSpecs are the public specs of the dev questions, likewise: four other services,
// so that what the plans learn from real specs is measured on the held-out five.
var publicDevSpecs = map[string]string{
	"netlify": "netlify/swagger.yml",
	"openai":  "openai/openapi.yaml.gz",
	"spotify": "spotify/fixed-spotify-open-api.yml.gz",
	"twilio":  "twilio/twilio_chat_v1.json.gz",
}

// PublicSpecDirName is the folder of the importer's public specs, relative to the repository
// root.
const PublicSpecDirName = "twnm/catalogs/testdata/specs"

// PublicSpecDir finds PublicSpecDirName in the working directory or one of its parents, so
// that `navi eval` from the repository root and go test from any package find it.
func PublicSpecDir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("public specs: %w", err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		cand := filepath.Join(dir, PublicSpecDirName)
		if st, err := os.Stat(cand); err == nil && st.IsDir() {
			return cand, nil
		}
		if filepath.Dir(dir) == dir {
			return "", fmt.Errorf("public specs: no %s in %s or its parents (run navi eval from the repository root)", PublicSpecDirName, wd)
		}
	}
}

// publicQuestion is one line of a question file.
type publicQuestion struct {
	ID    string   `json:"id"`
	Query string   `json:"query"`
	Chain []string `json:"chain"`
	// Why says which output feeds which required input; the loader does not read it.
	Why string `json:"why"`
}

// Public loads the held-out questions about public specs: questions written by hand in plain
// words, each with its gold chain, before any measurement, about specs no dev set uses (Box,
// Discord, Figma, Google Maps Platform, Slack), and never tuned on. The specs are imported
// from specDir (see PublicSpecDir) into one catalog, as `navi tools import` names them
// (<spec>.<operation>, the spec its APIs' provider and source): every question is ranked
// over all five specs' APIs, as in a deployment that imported them all.
func Public(specDir string) (Set, error) {
	return publicSet(specDir, publicSpecs, publicQuestions, "public", "Public specs",
		"held out, never tuned on: %d questions written by hand about Box, Discord, Figma, Google Maps Platform and Slack, "+
			"ranked over the %d APIs of the five specs imported together")
}

// PublicDev loads the dev questions about public specs, written like the held-out ones
// (Public) before any measurement, about four other services (Netlify, OpenAI, Spotify and
// Twilio's chat), imported together the same way. Unlike the held-out set, it may be tuned on.
func PublicDev(specDir string) (Set, error) {
	return publicSet(specDir, publicDevSpecs, publicDevQuestions, "publicdev", "Public specs (dev)",
		"dev set: %d questions written by hand about Netlify, OpenAI, Spotify and Twilio's chat, "+
			"ranked over the %d APIs of the four specs imported together")
}

// publicSet imports specs (key → file under specDir) into one catalog and reads their
// questions from questions (dir/<key>.jsonl), naming the set name; note is the set's note,
// formatted with the number of questions and of APIs.
func publicSet(specDir string, specs map[string]string, questions fs.FS, dir, name, note string) (Set, error) {
	keys := make([]string, 0, len(specs))
	for k := range specs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	cat := twnm.Catalog{Name: dir}
	var tasks []Task
	ids := map[string]bool{}
	for _, key := range keys {
		spec := filepath.Join(specDir, filepath.FromSlash(specs[key]))
		c, _, err := catalogs.Load(spec, catalogs.FormatAuto)
		if err != nil {
			return Set{}, fmt.Errorf("public specs: %w", err)
		}
		for _, a := range c.APIs {
			a.Name, a.Provider, a.Source = key+"."+a.Name, key, key
			if a.Check != "" {
				a.Check = key + "." + a.Check
			}
			cat.APIs = append(cat.APIs, a)
		}
		file := path.Join(dir, key+".jsonl")
		data, err := fs.ReadFile(questions, file)
		if errors.Is(err, fs.ErrNotExist) {
			continue // a spec without questions yet only widens the catalog
		}
		if err != nil {
			return Set{}, fmt.Errorf("public questions %s: %w", file, err)
		}
		qs, err := readPublicQuestions(file, data)
		if err != nil {
			return Set{}, err
		}
		for _, q := range qs {
			t := Task{ID: q.ID, Query: q.Query, Ordered: true}
			for _, a := range q.Chain {
				t.Chain = appendNew(t.Chain, key+"."+strings.TrimSpace(a))
			}
			if ids[t.ID] {
				return Set{}, fmt.Errorf("public questions %s: id %s repeats", file, t.ID)
			}
			ids[t.ID] = true
			t.Final = t.Chain.Final()
			tasks = append(tasks, t)
		}
	}
	known := apiNames(cat)
	for _, t := range tasks {
		for _, a := range t.Chain {
			if !known[a] {
				return Set{}, fmt.Errorf("public questions: %s: gold API %s is not in its spec", t.ID, a)
			}
		}
	}
	return Set{
		Name:    name,
		Catalog: cat,
		Tasks:   tasks,
		Note: fmt.Sprintf(note+". Gold = the chain the question's writer gave, in call order; Final = its last API.",
			len(tasks), len(cat.APIs)),
	}, nil
}

// readPublicQuestions reads one question file, naming the file and line of what is wrong.
func readPublicQuestions(file string, data []byte) ([]publicQuestion, error) {
	var qs []publicQuestion
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		var q publicQuestion
		dec := json.NewDecoder(bytes.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&q); err != nil {
			return nil, fmt.Errorf("public questions %s:%d: %w", file, line, err)
		}
		q.ID, q.Query = strings.TrimSpace(q.ID), strings.TrimSpace(q.Query)
		switch {
		case q.ID == "":
			return nil, fmt.Errorf("public questions %s:%d: field id is missing or empty", file, line)
		case q.Query == "":
			return nil, fmt.Errorf("public questions %s:%d (%s): field query is missing or empty", file, line, q.ID)
		case len(q.Chain) == 0:
			return nil, fmt.Errorf("public questions %s:%d (%s): field chain is missing or empty", file, line, q.ID)
		}
		qs = append(qs, q)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("public questions %s: %w", file, err)
	}
	return qs, nil
}
