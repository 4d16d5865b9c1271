package hgtdata

import "github.com/naviagent/navi/twnm/hgt/hgtspec"

// Config sets the model's shape and its training (hgtspec.Config).
type Config = hgtspec.Config

// DefaultConfig is hgtspec.DefaultConfig.
func DefaultConfig() Config { return hgtspec.DefaultConfig() }
