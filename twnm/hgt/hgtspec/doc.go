// Package hgtspec holds the plain settings and scores of the tool graph's link-prediction
// model (the heterogeneous graph transformer of twnm/hgt): its Config and its Metrics, as the
// retraining activities take and return them. It links nothing of Navi's, so that the
// workflows' contract carries them without the model's code.
package hgtspec
