// Package codec encrypts Temporal payloads with AES-256-GCM, so that what a run carries (the
// query, the user's answers, tool inputs and outputs, failure messages) is ciphertext in the
// Temporal server's history, and serves the codec over HTTP for the Temporal UI and CLI
// (Handler).
//
// The payload format is the one of Temporal's encryption samples in every SDK: metadata
// "encoding" = "binary/encrypted" and "encryption-key-id" = the key's ID; data = a 12-byte
// nonce followed by the AES-GCM sealing of the original payload, serialized. Keys are named:
// a payload says which key sealed it, so rotating to a new key keeps old histories readable
// for as long as the old key stays configured.
package codec

import (
	"bufio"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/protobuf/proto"
)

// Metadata of an encrypted payload.
const (
	// Encoding is the "encoding" metadata of an encrypted payload.
	Encoding = "binary/encrypted"
	// MetadataKeyID names the metadata entry that holds the ID of the key that sealed it.
	MetadataKeyID = "encryption-key-id"
	// KeySize is the length of an AES-256 key in bytes.
	KeySize   = 32
	nonceSize = 12
)

// Keys are the named AES-256 keys of a deployment: Active seals new payloads, every key opens
// the payloads it sealed.
type Keys struct {
	active string
	aeads  map[string]cipher.AEAD
	ids    []string // in the order given
}

// ParseKeys reads keys written as "id=base64" (standard or URL base64 of 32 bytes), separated
// by commas or new lines; blank lines and lines starting with # are skipped. active names the
// key that seals; "" takes the first one given. Errors name the entry, never its key.
func ParseKeys(spec, active string) (*Keys, error) {
	k := &Keys{aeads: map[string]cipher.AEAD{}}
	sc := bufio.NewScanner(strings.NewReader(spec))
	n := 0
	for sc.Scan() {
		for entry := range strings.SplitSeq(sc.Text(), ",") {
			entry = strings.TrimSpace(entry)
			if entry == "" || strings.HasPrefix(entry, "#") {
				continue
			}
			n++
			id, b64, ok := strings.Cut(entry, "=")
			id = strings.TrimSpace(id)
			if !ok || id == "" {
				return nil, fmt.Errorf("codec key %d: want id=base64key", n)
			}
			if _, dup := k.aeads[id]; dup {
				return nil, fmt.Errorf("codec key %q: given twice", id)
			}
			raw, err := decodeKey(strings.TrimSpace(b64))
			if err != nil {
				return nil, fmt.Errorf("codec key %q: %w", id, err)
			}
			block, err := aes.NewCipher(raw)
			if err != nil {
				return nil, fmt.Errorf("codec key %q: %w", id, err)
			}
			aead, err := cipher.NewGCM(block)
			if err != nil {
				return nil, fmt.Errorf("codec key %q: %w", id, err)
			}
			k.aeads[id] = aead
			k.ids = append(k.ids, id)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("codec keys: %w", err)
	}
	if len(k.ids) == 0 {
		return nil, errors.New("codec keys: none given")
	}
	k.active = active
	if k.active == "" {
		k.active = k.ids[0]
	}
	if _, ok := k.aeads[k.active]; !ok {
		return nil, fmt.Errorf("codec keys: the active key %q is not among the keys given (%s)", k.active, strings.Join(k.ids, ", "))
	}
	return k, nil
}

// decodeKey reads a base64 key of KeySize bytes, padded or not.
func decodeKey(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if raw, err := enc.DecodeString(s); err == nil {
			if len(raw) != KeySize {
				return nil, fmt.Errorf("the key is %d bytes, want %d (AES-256)", len(raw), KeySize)
			}
			return raw, nil
		}
	}
	return nil, errors.New("the key is not base64")
}

// NewKey returns a new random key in the form ParseKeys reads ("id=base64").
func NewKey(id string) (string, error) {
	raw := make([]byte, KeySize)
	if _, err := rand.Read(raw); err != nil {
		return "", fmt.Errorf("new codec key: %w", err)
	}
	return id + "=" + base64.StdEncoding.EncodeToString(raw), nil
}

// Active is the ID of the key that seals new payloads.
func (k *Keys) Active() string { return k.active }

// IDs are the IDs of every key, in the order given.
func (k *Keys) IDs() []string { return slices.Clone(k.ids) }

// Codec is the AES-256-GCM converter.PayloadCodec.
type Codec struct {
	keys *Keys
	rand io.Reader
}

var _ converter.PayloadCodec = (*Codec)(nil)

// New returns the codec of keys.
func New(keys *Keys) *Codec { return &Codec{keys: keys, rand: rand.Reader} }

// Encode seals each payload with the active key.
func (c *Codec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	aead := c.keys.aeads[c.keys.active]
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		plain, err := proto.Marshal(p)
		if err != nil {
			return nil, fmt.Errorf("encrypt payload %d: %w", i, err)
		}
		nonce := make([]byte, nonceSize, nonceSize+len(plain)+aead.Overhead())
		if _, err := io.ReadFull(c.rand, nonce); err != nil {
			return nil, fmt.Errorf("encrypt payload %d: nonce: %w", i, err)
		}
		out[i] = &commonpb.Payload{
			Metadata: map[string][]byte{
				converter.MetadataEncoding: []byte(Encoding),
				MetadataKeyID:              []byte(c.keys.active),
			},
			Data: aead.Seal(nonce, nonce, plain, nil),
		}
	}
	return out, nil
}

// Decode opens each encrypted payload with the key it names, and passes any other payload
// through unchanged: histories written before encryption was turned on still read.
func (c *Codec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		if string(p.GetMetadata()[converter.MetadataEncoding]) != Encoding {
			out[i] = p
			continue
		}
		id := string(p.GetMetadata()[MetadataKeyID])
		aead, ok := c.keys.aeads[id]
		if !ok {
			return nil, fmt.Errorf("decrypt payload %d: it was sealed with key %q, which is not configured (configured: %s)",
				i, id, strings.Join(c.keys.ids, ", "))
		}
		if len(p.GetData()) < nonceSize+aead.Overhead() {
			return nil, fmt.Errorf("decrypt payload %d: %d bytes is too short for AES-GCM", i, len(p.GetData()))
		}
		plain, err := aead.Open(nil, p.Data[:nonceSize], p.Data[nonceSize:], nil)
		if err != nil {
			return nil, fmt.Errorf("decrypt payload %d with key %q: the ciphertext does not authenticate (altered, or another key of that name)", i, id)
		}
		var dec commonpb.Payload
		if err := proto.Unmarshal(plain, &dec); err != nil {
			return nil, fmt.Errorf("decrypt payload %d: not a payload inside: %w", i, err)
		}
		out[i] = &dec
	}
	return out, nil
}

// DataConverter is Temporal's default data converter with c encrypting what it writes.
func (c *Codec) DataConverter() converter.DataConverter {
	return converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), c)
}

// FailureConverter encrypts failure messages and stack traces too (Temporal's "encode common
// attributes"): an error can quote what the user or a tool said.
func (c *Codec) FailureConverter() converter.FailureConverter {
	return temporal.NewDefaultFailureConverter(temporal.DefaultFailureConverterOptions{
		DataConverter: c.DataConverter(), EncodeCommonAttributes: true})
}

// Keys are the keys c seals and opens with.
func (c *Codec) Keys() *Keys { return c.keys }
