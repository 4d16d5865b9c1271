package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/codec"
)

func TestCodecKeyAndServerRefusals(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, codecKey([]string{"k9"}, streams{&out, io.Discard}))
	line := strings.TrimSpace(out.String())
	keys, err := codec.ParseKeys(line, "")
	require.NoError(t, err, "navi codec-key prints what NAVI_CODEC_KEYS takes")
	assert.Equal(t, "k9", keys.Active())
	require.ErrorIs(t, codecKey([]string{"a=b"}, streams{io.Discard, io.Discard}), errUsage)

	t.Setenv("NAVI_CODEC_KEYS", "")
	t.Setenv("NAVI_CODEC_KEYS_FILE", "")
	require.ErrorContains(t, codecServer(nil, streams{io.Discard, io.Discard}), "no keys")
	t.Setenv("NAVI_CODEC_KEYS", line)
	t.Setenv("NAVI_CODEC_SERVER_TOKEN", "")
	require.ErrorContains(t, codecServer([]string{"-addr", "0.0.0.0:0"}, streams{io.Discard, io.Discard}),
		"reachable from other machines: set NAVI_CODEC_SERVER_TOKEN")
	require.ErrorIs(t, codecServer([]string{"extra"}, streams{io.Discard, io.Discard}), errUsage)
}
