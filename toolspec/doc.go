// Package toolspec is what a tool catalog says of its tools: the catalog, each API with its
// typed inputs and outputs, where an HTTP call puts them, its endpoint, authentication, retry
// hints and effect, an MCP tool's server, and Navi's native JSON/YAML form (DecodeCatalog).
// It also reads answers: a value at a path of an output (Lookup) and the outputs an answer
// shows beyond its catalog entry (Observe). It links no other Navi package, so that the tool
// client, MCP and the tool world import the catalog without the graph; twnm names the same
// types for the graph's callers.
package toolspec
