package codec

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"google.golang.org/protobuf/proto"
)

// key returns "id=" and 32 bytes of b in base64.
func key(id string, b byte) string {
	return id + "=" + base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{b}, KeySize))
}

func mustKeys(t *testing.T, spec, active string) *Keys {
	t.Helper()
	k, err := ParseKeys(spec, active)
	require.NoError(t, err)
	return k
}

func payloads(t *testing.T, vs ...any) []*commonpb.Payload {
	t.Helper()
	out := make([]*commonpb.Payload, len(vs))
	for i, v := range vs {
		p, err := converter.GetDefaultDataConverter().ToPayload(v)
		require.NoError(t, err)
		out[i] = p
	}
	return out
}

func TestRoundTrip(t *testing.T) {
	c := New(mustKeys(t, key("k1", 1), ""))
	in := payloads(t, "What is the air quality in Rome?", map[string]int{"n": 3}, nil)
	enc, err := c.Encode(in)
	require.NoError(t, err)
	require.Len(t, enc, 3)
	for i, p := range enc {
		assert.Equal(t, Encoding, string(p.Metadata[converter.MetadataEncoding]), i)
		assert.Equal(t, "k1", string(p.Metadata[MetadataKeyID]), i)
		if len(in[i].Data) > 0 { // (nil is binary/null, with no data)
			assert.False(t, bytes.Contains(p.Data, in[i].Data), "payload %d holds its plaintext", i)
		}
	}
	again, err := c.Encode(in)
	require.NoError(t, err)
	assert.NotEqual(t, enc[0].Data, again[0].Data, "a fresh nonce each time")

	dec, err := c.Decode(enc)
	require.NoError(t, err)
	for i := range in {
		assert.True(t, proto.Equal(in[i], dec[i]), "payload %d", i)
	}
}

func TestDataConverter(t *testing.T) {
	dc := New(mustKeys(t, key("k1", 1), "")).DataConverter()
	p, err := dc.ToPayload("secret plans")
	require.NoError(t, err)
	assert.NotContains(t, string(p.Data), "secret plans")
	var s string
	require.NoError(t, dc.FromPayload(p, &s))
	assert.Equal(t, "secret plans", s)
}

func TestRotation(t *testing.T) {
	// Sealed under k1; then k2 becomes active with k1 kept: old payloads open, new ones use k2.
	old, err := New(mustKeys(t, key("k1", 1), "")).Encode(payloads(t, "before"))
	require.NoError(t, err)
	rotated := New(mustKeys(t, key("k2", 2)+"\n"+key("k1", 1), ""))
	dec, err := rotated.Decode(old)
	require.NoError(t, err)
	var s string
	require.NoError(t, converter.GetDefaultDataConverter().FromPayload(dec[0], &s))
	assert.Equal(t, "before", s)
	enc, err := rotated.Encode(payloads(t, "after"))
	require.NoError(t, err)
	assert.Equal(t, "k2", string(enc[0].Metadata[MetadataKeyID]))

	// With k1 dropped, the old payload names the key it needs.
	_, err = New(mustKeys(t, key("k2", 2), "")).Decode(old)
	require.ErrorContains(t, err, `sealed with key "k1", which is not configured`)
}

func TestDecodeRefusesAlteredAndPassesPlain(t *testing.T) {
	c := New(mustKeys(t, key("k1", 1), ""))
	enc, err := c.Encode(payloads(t, "x"))
	require.NoError(t, err)
	altered := proto.Clone(enc[0]).(*commonpb.Payload)
	altered.Data[len(altered.Data)-1] ^= 1
	_, err = c.Decode([]*commonpb.Payload{altered})
	require.ErrorContains(t, err, "does not authenticate")

	short := proto.Clone(enc[0]).(*commonpb.Payload)
	short.Data = short.Data[:5]
	_, err = c.Decode([]*commonpb.Payload{short})
	require.ErrorContains(t, err, "too short")

	// Same name, other key: the tag does not match.
	_, err = New(mustKeys(t, key("k1", 9), "")).Decode(enc)
	require.ErrorContains(t, err, "does not authenticate")

	plain := payloads(t, "written before encryption")
	dec, err := c.Decode(plain)
	require.NoError(t, err)
	assert.Same(t, plain[0], dec[0])
}

func TestParseKeys(t *testing.T) {
	raw := bytes.Repeat([]byte{7}, KeySize)
	k := mustKeys(t, "# rotated 2026-11\n"+key("new", 1)+", old="+base64.RawURLEncoding.EncodeToString(raw)+"\n\n", "old")
	assert.Equal(t, "old", k.Active())
	assert.Equal(t, []string{"new", "old"}, k.IDs())

	generated, err := NewKey("gen")
	require.NoError(t, err)
	assert.Equal(t, "gen", mustKeys(t, generated, "").Active())

	tests := []struct{ name, spec, active, want string }{
		{"none", " \n# only a comment\n", "", "none given"},
		{"no id", "=" + base64.StdEncoding.EncodeToString(raw), "", "key 1: want id=base64key"},
		{"no equals", "k1", "", "key 1: want id=base64key"},
		{"not base64", "k1=!!!", "", `"k1": the key is not base64`},
		{"short", "k1=" + base64.StdEncoding.EncodeToString(raw[:16]), "", `"k1": the key is 16 bytes, want 32`},
		{"twice", key("k1", 1) + "," + key("k1", 2), "", `"k1": given twice`},
		{"unknown active", key("k1", 1), "k9", `active key "k9" is not among the keys given (k1)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseKeys(tt.spec, tt.active)
			require.ErrorContains(t, err, tt.want)
			assert.False(t, strings.Contains(err.Error(), base64.StdEncoding.EncodeToString(raw)), "the error quotes the key")
		})
	}
}
