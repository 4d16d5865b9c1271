package bm25

import (
	"math"
	"math/bits"
)

// This file replicates the parts of Lucene 9's BM25Similarity (the similarity of Neo4j 5's
// full-text indexes) whose arithmetic shows in scores: the lossy one-byte encoding of a
// field's length (SmallFloat.intToByte4), the table of 256 normalisation factors computed per
// query term, and float32 (Java float) arithmetic where Lucene uses it. Every float32
// operation is written with an explicit conversion, which in Go rounds to float32 and forbids
// the compiler to fuse a multiply and an add (as it may on arm64): Java never fuses.

// maxInt4 is longToInt4(math.MaxInt32); numFreeValues byte values below it encode lengths
// exactly.
var (
	maxInt4       = longToInt4(math.MaxInt32)
	numFreeValues = 255 - maxInt4 // 24
)

// longToInt4 is Lucene's SmallFloat.longToInt4: a float-like encoding of a non-negative
// integer that keeps its 4 most significant bits.
func longToInt4(i int64) int {
	numBits := 64 - bits.LeadingZeros64(uint64(i))
	if numBits < 4 {
		return int(i) // subnormal
	}
	shift := numBits - 4
	encoded := int(uint64(i)>>uint(shift)) & 0x07 // the top bit is implicit
	return encoded | (shift+1)<<3
}

// int4ToLong is Lucene's SmallFloat.int4ToLong, the inverse of longToInt4 up to its loss.
func int4ToLong(i int) int64 {
	b := int64(i & 0x07)
	shift := (i >> 3) - 1
	if shift == -1 {
		return b // subnormal
	}
	return (b | 0x08) << uint(shift)
}

// intToByte4 is Lucene's SmallFloat.intToByte4: how a field's length (its number of tokens)
// is stored as the document's norm. Lengths below 24 are exact; above, about 4 significant
// bits remain.
func intToByte4(i int) byte {
	if i < numFreeValues {
		return byte(i)
	}
	return byte(numFreeValues + longToInt4(int64(i-numFreeValues)))
}

// byte4ToInt is Lucene's SmallFloat.byte4ToInt: the length a norm byte stands for.
func byte4ToInt(b byte) int {
	i := int(b)
	if i < numFreeValues {
		return i
	}
	return numFreeValues + int(int4ToLong(i-numFreeValues))
}

// lengthTable is BM25Similarity.LENGTH_TABLE: the decoded length of every norm byte.
var lengthTable = func() [256]float32 {
	var t [256]float32
	for i := range t {
		t[i] = float32(byte4ToInt(byte(i)))
	}
	return t
}()

// normCache is the table BM25Similarity.scorer builds for a field: for each norm byte,
// 1 / (k1 · ((1 − b) + b · length / avgdl)), in float32 and in Lucene's order of operations.
func normCache(k1, b, avgdl float32) [256]float32 {
	var c [256]float32
	oneMinusB := float32(1 - b)
	for i, l := range lengthTable {
		x := float32(b * l)
		x = float32(x / avgdl)
		x = float32(oneMinusB + x)
		x = float32(k1 * x)
		c[i] = float32(1 / x)
	}
	return c
}

// idf is BM25Similarity.idf: ln(1 + (docCount − df + 0.5) / (df + 0.5)) in float64, then
// rounded to float32.
func idf(df, docCount int64) float32 {
	return float32(math.Log(1 + (float64(docCount-df)+0.5)/(float64(df)+0.5)))
}

// avgFieldLength is BM25Similarity.avgFieldLength: sumTotalTermFreq / docCount in float64,
// rounded to float32.
func avgFieldLength(sumTotalTermFreq, docCount int64) float32 {
	return float32(float64(sumTotalTermFreq) / float64(docCount))
}

// termScore is BM25Scorer.score: weight − weight / (1 + freq · normInverse), which equals
// weight · freq / (freq + k1 · (1 − b + b · dl / avgdl)); weight is boost · idf.
func termScore(weight float32, freq int32, normInverse float32) float32 {
	x := float32(float32(freq) * normInverse)
	x = float32(1 + x)
	x = float32(weight / x)
	return float32(weight - x)
}
