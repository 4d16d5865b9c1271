// Package retrievaleval measures how well a retrieval method ranks a catalog's APIs for a
// query: given a task's query, is its gold final API near the top, and how much of its gold
// chain is? It loads public dev sets, runs any number of methods over them behind one seam
// (Method, Ranker) and writes the results as JSON (every number and each task's ranks, for
// diffs between runs) and as Markdown tables.
//
// # Sets
//
// A Set is a catalog and tasks over it; every API of the catalog is a candidate for every
// task. Each task has a Chain, its gold APIs without repeats, and a Final, the last of them.
//
//   - StableToolBench: the 765 queries of solvable_queries/test_instruction (G1 to G3), ranked
//     over the union of their candidate lists, 2,479 RapidAPI endpoints named as
//     catalogs.StableToolBench names them. The gold is each query's "relevant APIs"; the data
//     calls it an unordered set, but its list order mostly follows the order the query asks
//     for the APIs in, so this package takes the list order (repeats dropped: three queries
//     list an API twice) and Final is the last relevant API. Ordered is false: read Final's
//     metrics here as "one named gold API", the chain metrics as the set-based ones.
//   - RestBench: the 100 TMDB queries of datasets/tmdb.json, their solution endpoints mapped to
//     the operations of specs/tmdb_oas.json (54) by chaineval.RestBenchChains; Chain in call
//     order, Final the last call.
//   - APIBank: the 50 level-3 chains of test-data/level-3.json (chaineval.APIBankChains:
//     ToolSearcher calls dropped, repeats counted once), ranked over all of
//     api_catalog_extracted.json as catalogs.APIBank reads it (71 APIs, both sets, the first
//     copy of a repeated name; ToolSearcher is a candidate but never gold). A chain whose gold
//     API is not in the catalog is an error naming the chain (none is, in the published data).
//   - ToolWorld: toolworld.GenerateTasks's tasks (gold chain in call order, repeats dropped;
//     Final the API that answers, kept last) ranked over toolworld.Catalog. Nothing is called.
//
// ToolBench's tooleval trajectories (shared data's toolbench/) are model runs, not gold chains,
// so they are no retrieval dev set here.
//
// # Metrics
//
// A Ranker returns API names best first; rank r of an API is its 1-based position in that
// list, and an API missing from the list has no rank. Per (set, method), averaged over tasks:
//
//   - Hit@k (k = 1, 3, 10): the share of tasks whose Final has a rank ≤ k.
//   - MRR: the mean of 1/rank(Final), 0 when Final has no rank.
//   - Recall@5: |Chain ∩ top 5| / |Chain|.
//   - NDCG@10: binary relevance (an API of Chain is relevant), DCG = Σ_{r ≤ 10, relevant}
//     1/log2(r+1), divided by the ideal DCG = Σ_{r=1}^{min(|Chain|,10)} 1/log2(r+1).
//   - Time: the mean wall time of one Rank call (queries run in parallel, Options.Workers at
//     a time), and the time Method.New took to build the ranker for the set.
//
// A ranking that names an API not in the catalog, or one API twice, is an error: the harness
// fails loudly rather than score a broken method.
package retrievaleval
