package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Names of the files WriteResults writes besides the plots.
const (
	ReportJSON     = "report.json"
	ReportMarkdown = "report.md"
)

// WriteResults writes the report into dir, creating it: report.json (WriteJSON),
// report.md (WriteMarkdown) and the PNG plots (WritePlots).
func WriteResults(dir string, r Report) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write results: %w", err)
	}
	if err := writeFile(filepath.Join(dir, ReportJSON), func(w io.Writer) error { return WriteJSON(w, r) }); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(dir, ReportMarkdown), func(w io.Writer) error { return WriteMarkdown(w, r) }); err != nil {
		return err
	}
	if _, err := WritePlots(dir, r); err != nil {
		return fmt.Errorf("write results: %w", err)
	}
	return nil
}

// WriteJSON writes the report as indented JSON.
func WriteJSON(w io.Writer, r Report) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	// Keep "->" and "<" readable in answers and commands rather than \u escapes.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("encode report: %w", err)
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}

// ReadJSON reads a report written by WriteJSON, to render it again.
func ReadJSON(r io.Reader) (Report, error) {
	var rep Report
	if err := json.NewDecoder(r).Decode(&rep); err != nil {
		return Report{}, fmt.Errorf("decode report: %w", err)
	}
	return rep, nil
}

// writeFile creates path and writes it with write.
func writeFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("write results: %w", err)
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("write results: %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write results: %w", err)
	}
	return nil
}
