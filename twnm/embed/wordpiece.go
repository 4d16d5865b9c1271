package embed

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"unicode"
	"unicode/utf8"

	unorm "golang.org/x/text/unicode/norm"
)

// DefaultMaxTokens is the default cap on the tokens of one text, [CLS] and [SEP] included:
// 256, the max_seq_length sentence-transformers sets for all-MiniLM-L6-v2. Longer texts are
// truncated.
const DefaultMaxTokens = 256

// maxWordRunes is BERT's max_input_chars_per_word: a longer word is one [UNK].
const maxWordRunes = 100

// WordPieceOptions configures a WordPiece tokenizer. The zero value gives the defaults.
type WordPieceOptions struct {
	// MaxTokens caps the ids Encode returns, [CLS] and [SEP] included; 0 means
	// DefaultMaxTokens. It must be at least 2.
	MaxTokens int
}

// WordPiece is the tokenizer of uncased BERT models, giving the same ids as Hugging Face's
// BertTokenizer with do_lower_case=True. Its BasicTokenizer step drops U+0000, U+FFFD and
// control characters, turns whitespace into spaces, puts spaces around CJK ideographs,
// lowercases, strips accents (NFD, then combining marks dropped), and splits on whitespace and
// on punctuation (ASCII symbols count as punctuation, as in BERT). Each word is then split
// greedily, longest match first, into vocabulary pieces ("##" marks a piece that continues a
// word); a word with an unmatched rest, or of more than 100 characters, becomes [UNK].
//
// A WordPiece is immutable and safe for concurrent use.
type WordPiece struct {
	vocab     map[string]int32 // pieces that start a word
	cont      map[string]int32 // continuation pieces, without their "##"
	tokens    []string         // by id
	cls, sep  int32
	unk, pad  int32
	maxTokens int
}

// LoadWordPiece reads a BERT vocab.txt (one token per line, the line number is the id).
func LoadWordPiece(path string, o WordPieceOptions) (*WordPiece, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("wordpiece: %w", err)
	}
	data = bytes.TrimSuffix(data, []byte("\n"))
	w, err := NewWordPiece(strings.Split(string(data), "\n"), o)
	if err != nil {
		return nil, fmt.Errorf("%w (vocabulary %s)", err, path)
	}
	return w, nil
}

// NewWordPiece returns a tokenizer over vocab, where a token's index is its id. The
// vocabulary must hold [CLS], [SEP], [UNK] and [PAD]. A token listed twice keeps its last id,
// as in the Python tokenizer.
func NewWordPiece(vocab []string, o WordPieceOptions) (*WordPiece, error) {
	w := &WordPiece{
		vocab:     make(map[string]int32, len(vocab)),
		cont:      make(map[string]int32, len(vocab)/4),
		tokens:    vocab,
		maxTokens: o.MaxTokens,
	}
	if w.maxTokens == 0 {
		w.maxTokens = DefaultMaxTokens
	}
	if w.maxTokens < 2 {
		return nil, fmt.Errorf("wordpiece: MaxTokens %d leaves no room for [CLS] and [SEP]", o.MaxTokens)
	}
	if len(vocab) > 1<<31-1 {
		return nil, fmt.Errorf("wordpiece: %d tokens exceed int32 ids", len(vocab))
	}
	for id, tok := range vocab {
		w.vocab[tok] = int32(id)
		if rest, ok := strings.CutPrefix(tok, "##"); ok && rest != "" {
			w.cont[rest] = int32(id)
		}
	}
	for _, sp := range []struct {
		tok string
		id  *int32
	}{{"[CLS]", &w.cls}, {"[SEP]", &w.sep}, {"[UNK]", &w.unk}, {"[PAD]", &w.pad}} {
		id, ok := w.vocab[sp.tok]
		if !ok {
			return nil, fmt.Errorf("wordpiece: the vocabulary of %d tokens lacks %s", len(vocab), sp.tok)
		}
		*sp.id = id
	}
	return w, nil
}

// VocabSize returns the number of ids.
func (w *WordPiece) VocabSize() int { return len(w.tokens) }

// MaxTokens returns the cap on the length of Encode's result.
func (w *WordPiece) MaxTokens() int { return w.maxTokens }

// Token returns the vocabulary entry of id, or "" when id is out of range.
func (w *WordPiece) Token(id int32) string {
	if id < 0 || int(id) >= len(w.tokens) {
		return ""
	}
	return w.tokens[id]
}

// Encode returns the ids of text: [CLS], the word pieces, [SEP], truncated to MaxTokens ids
// by dropping the last pieces.
func (w *WordPiece) Encode(text string) []int32 {
	ids := make([]int32, 1, 16)
	ids[0] = w.cls
	limit := w.maxTokens - 1
	w.words(text, func(word string) bool {
		ids = w.appendPieces(ids, word, limit)
		return len(ids) < limit
	})
	return append(ids, w.sep)
}

// Tokens returns the word pieces of text, without [CLS], [SEP] or truncation: a debugging aid.
func (w *WordPiece) Tokens(text string) []string {
	var out []string
	w.words(text, func(word string) bool {
		for _, id := range w.appendPieces(nil, word, 1<<30) {
			out = append(out, w.tokens[id])
		}
		return true
	})
	return out
}

// appendPieces appends the ids of word's pieces to ids, up to len(ids) == limit.
func (w *WordPiece) appendPieces(ids []int32, word string, limit int) []int32 {
	if utf8.RuneCountInString(word) > maxWordRunes {
		return append(ids, w.unk)
	}
	n := len(ids)
	for start := 0; start < len(word); {
		end := len(word)
		id := int32(-1)
		for end > start {
			var ok bool
			if start == 0 {
				id, ok = w.vocab[word[:end]]
			} else {
				id, ok = w.cont[word[start:end]]
			}
			if ok {
				break
			}
			id = -1
			_, size := utf8.DecodeLastRuneInString(word[start:end])
			end -= size
		}
		if id < 0 {
			return append(ids[:n], w.unk)
		}
		ids = append(ids, id)
		start = end
	}
	if len(ids) > limit {
		ids = ids[:max(limit, n)]
	}
	return ids
}

// words runs BERT's BasicTokenizer over text, calling emit with each word (a run of
// non-punctuation, or one punctuation character) until emit returns false.
func (w *WordPiece) words(text string, emit func(string) bool) {
	var chunk []rune       // the current whitespace-separated chunk, cleaned
	var buf []rune         // scratch for lowercasing
	var word []byte        // scratch for the normalized chunk
	flush := func() bool { // normalizes and splits chunk; false when emit asked to stop
		if len(chunk) == 0 {
			return true
		}
		buf = lowerRunes(buf[:0], chunk)
		chunk = chunk[:0]
		word = word[:0]
		ascii := true
		for _, r := range buf {
			if r >= utf8.RuneSelf {
				ascii = false
				break
			}
		}
		if ascii {
			for _, r := range buf {
				word = append(word, byte(r))
			}
		} else {
			// Strip accents: decompose (NFD), drop the nonspacing marks.
			for _, r := range buf {
				word = utf8.AppendRune(word, r)
			}
			word = stripMarks(unorm.NFD.Bytes(word))
		}
		s := string(word)
		start := 0
		for i, r := range s {
			if !isBertPunct(r) {
				continue
			}
			if start < i && !emit(s[start:i]) {
				return false
			}
			size := utf8.RuneLen(r)
			if !emit(s[i : i+size]) {
				return false
			}
			start = i + size
		}
		if start < len(s) {
			return emit(s[start:])
		}
		return true
	}
	for _, r := range text {
		switch {
		case r == 0 || r == utf8.RuneError || isBertControl(r):
			continue
		case isBertSpace(r) || unicode.IsSpace(r):
			if !flush() {
				return
			}
		case isCJK(r):
			if !flush() {
				return
			}
			chunk = append(chunk, r)
			if !flush() {
				return
			}
		default:
			chunk = append(chunk, r)
		}
	}
	flush()
}

// stripMarks removes the nonspacing marks (category Mn) from the UTF-8 text b, in place.
func stripMarks(b []byte) []byte {
	out := b[:0]
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if !unicode.Is(unicode.Mn, r) {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

// lowerRunes appends the lowercase of s to dst, character by character (simple case
// mapping), as the reference tokenizers do: transformers lowercases one character at a time
// before its BasicTokenizer, and the Rust normalizer maps each char, so a final capital sigma
// becomes σ, not ς. (Python's one unconditional multi-character lowercase, İ to "i̇", ends up
// as "i" once the accents are stripped, which is what the simple mapping gives.)
func lowerRunes(dst, s []rune) []rune {
	for _, r := range s {
		switch {
		case 'A' <= r && r <= 'Z':
			r += 'a' - 'A'
		case r >= utf8.RuneSelf:
			r = unicode.ToLower(r)
		}
		dst = append(dst, r)
	}
	return dst
}

// isBertControl is BERT's _is_control: a character of category C* (control, format, private
// use, surrogate, unassigned) other than tab, newline and carriage return.
func isBertControl(r rune) bool {
	if r < utf8.RuneSelf {
		return (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0x7f
	}
	if unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs) {
		return true
	}
	// Unassigned (Cn): in none of the categories.
	return !unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z)
}

// isBertSpace is BERT's _is_whitespace: space, tab, newline, carriage return or category Zs.
func isBertSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r':
		return true
	}
	return r >= utf8.RuneSelf && unicode.Is(unicode.Zs, r)
}

// isBertPunct is BERT's _is_punctuation: every ASCII non-letter, non-digit symbol, and
// Unicode category P*.
func isBertPunct(r rune) bool {
	if r < utf8.RuneSelf {
		return (r >= 33 && r <= 47) || (r >= 58 && r <= 64) || (r >= 91 && r <= 96) || (r >= 123 && r <= 126)
	}
	return unicode.IsPunct(r)
}

// isCJK reports whether r is in BERT's CJK Unified Ideographs blocks, which it splits into
// single characters (Japanese kana and Korean Hangul are not among them).
func isCJK(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF) ||
		(r >= 0x3400 && r <= 0x4DBF) ||
		(r >= 0x20000 && r <= 0x2A6DF) ||
		(r >= 0x2A700 && r <= 0x2B73F) ||
		(r >= 0x2B740 && r <= 0x2B81F) ||
		(r >= 0x2B820 && r <= 0x2CEAF) ||
		(r >= 0xF900 && r <= 0xFAFF) ||
		(r >= 0x2F800 && r <= 0x2FA1F)
}
