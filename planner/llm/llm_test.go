package llm_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/sashabaranov/go-openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/planner/llm"
	"github.com/naviagent/navi/planner/llm/llmtest"
)

const (
	testModel = "test-model"
	testKey   = "sk-test-SECRET-4f9a2c"
)

// newPlanner points a planner at srv; edit adjusts the config.
func newPlanner(t *testing.T, baseURL string, edit ...func(*llm.Config)) *llm.Planner {
	t.Helper()
	cfg := llm.Config{BaseURL: baseURL, Model: testModel, APIKey: testKey}
	for _, e := range edit {
		e(&cfg)
	}
	p, err := llm.New(cfg)
	require.NoError(t, err)
	return p
}

func testContext() planner.Context {
	return planner.Context{Query: "What is the weather in Paris?", Observation: "start", Step: 1, MaxSteps: 8}
}

var (
	retrieve = planner.Decision{DependencyRank: 1, Intent: "find a weather API", Action: planner.RetrieveAPI,
		RecallDescription: "WeatherAPI(description: current weather by city, input: city:string/city name; output: temp:float/temperature)"}
	call = planner.Decision{DependencyRank: 2, Action: planner.CallAPI, TargetAPI: "GetWeather",
		Params: map[string]string{"city": "Paris"}}
	answer = planner.Decision{DependencyRank: 1, Action: planner.DirectAnswer, Answer: "It is 21°C in Paris."}
)

func TestDecideValidAnswer(t *testing.T) {
	srv := llmtest.Script(t, llmtest.Response{Content: llmtest.JSON(retrieve, call), PromptTokens: 120, CompletionTokens: 30})
	p := newPlanner(t, srv.URL)

	res, err := p.Decide(context.Background(), testContext())
	require.NoError(t, err)
	assert.Equal(t, "llm:"+testModel, res.Planner)
	assert.Equal(t, []planner.Decision{retrieve, call}, res.Decisions)
	assert.Equal(t, planner.Usage{LLMCalls: 1, PromptTokens: 120, CompletionTokens: 30}, res.Usage)
	assert.False(t, res.Repaired)

	req := srv.Last(t)
	assert.Equal(t, testModel, req.Model)
	assert.Equal(t, "json_schema", req.ResponseFormat)
	assert.JSONEq(t, string(llm.Schema(testContext())), string(req.Schema))
	assert.Equal(t, llm.DefaultMaxTokens, req.MaxTokens)
	assert.Equal(t, testKey, req.APIKey, "the key goes to the endpoint as a bearer token")
	require.NotNil(t, req.Temperature, "temperature 0 must be sent, not omitted")
	assert.InDelta(t, 0, *req.Temperature, 1e-9)
	require.Len(t, req.Messages, 2)
	assert.Equal(t, "system", req.Messages[0].Role)
	assert.Equal(t, "user", req.Messages[1].Role)
	assert.Contains(t, req.System(), "You are an intelligent API coordination system.")
	assert.Contains(t, req.User(), "What is the weather in Paris?")
}

func TestDecideAnswerShapes(t *testing.T) {
	want := []planner.Decision{retrieve, call}
	tests := []struct {
		name    string
		content string
	}{
		{"object", llmtest.JSON(call, retrieve)},
		{"bare array", llmtest.Array(call, retrieve)},
		{"fenced object", llmtest.Fenced(llmtest.JSON(retrieve, call))},
		{"fenced array with prose", "Here are my decisions:\n" + llmtest.Fenced(llmtest.Array(retrieve, call)) + "\nDone."},
		{"fence without language", "```\n" + llmtest.JSON(retrieve, call) + "\n```"},
		{"prose before object", "Sure! " + llmtest.JSON(retrieve, call)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.Script(t, llmtest.Response{Content: tt.content})
			res, err := newPlanner(t, srv.URL).Decide(context.Background(), testContext())
			require.NoError(t, err)
			assert.Equal(t, want, res.Decisions, "sorted by dependency_rank")
			assert.False(t, res.Repaired)
			assert.Equal(t, 1, srv.Count())
		})
	}

	t.Run("single decision object", func(t *testing.T) {
		srv := llmtest.Script(t, llmtest.Response{Content: `{"dependency_rank":1,"action":"direct_answer","answer":"It is 21°C in Paris."}`})
		res, err := newPlanner(t, srv.URL).Decide(context.Background(), testContext())
		require.NoError(t, err)
		assert.Equal(t, []planner.Decision{answer}, res.Decisions)
	})
}

func TestDecideNumbersInParams(t *testing.T) {
	content := `{"decisions":[{"dependency_rank":1,"action":"call_api","target_api":"Search","params":{
		"count": 3, "lat": 48.8566, "big": 1e21, "small": 2.5E-3, "neg": -7,
		"id": 12345678901234567890, "flag": true, "city": "Paris", "none": null, "tags": ["a", 1]}}]}`
	srv := llmtest.Script(t, llmtest.Response{Content: content})
	res, err := newPlanner(t, srv.URL).Decide(context.Background(), testContext())
	require.NoError(t, err)
	require.Len(t, res.Decisions, 1)
	assert.Equal(t, map[string]string{
		"count": "3",
		"lat":   "48.8566",
		"big":   "1000000000000000000000",
		"small": "0.0025",
		"neg":   "-7",
		"id":    "12345678901234567890", // kept exact, beyond float64 precision
		"flag":  "true",
		"city":  "Paris",
		"tags":  `["a",1]`,
	}, res.Decisions[0].Params, "null params are left out")
}

func TestDecideRepair(t *testing.T) {
	valid := llmtest.JSON(retrieve)
	tests := []struct {
		name       string
		first      llmtest.Response
		wantReason string
	}{
		{
			name:       "invalid JSON",
			first:      llmtest.Response{Content: `{"decisions": [{"action": "retrieve_api",,}]}`},
			wantReason: "your answer is not valid JSON: invalid character ',' looking for beginning of object key string at byte",
		},
		{
			name: "unknown action",
			first: llmtest.Response{Content: `{"decisions":[` +
				`{"dependency_rank":1,"action":"retrieve_api","recall_description":"x"},` +
				`{"dependency_rank":2,"action":"call","target_api":"GetWeather"}]}`},
			wantReason: `decision 2: action "call" is not one of call_api, direct_answer, retrieve_api, clarify_intent`,
		},
		{
			name:       "call_api without target_api",
			first:      llmtest.Response{Content: `[{"dependency_rank":1,"action":"call_api","params":{"city":"Paris"}}]`},
			wantReason: `decision 1: action call_api needs "target_api"`,
		},
		{
			name:       "retrieve_api without recall_description",
			first:      llmtest.Response{Content: `[{"dependency_rank":1,"action":"retrieve_api"}]`},
			wantReason: `decision 1: action retrieve_api needs "recall_description"`,
		},
		{
			name:       "clarify_intent without answer",
			first:      llmtest.Response{Content: `[{"dependency_rank":1,"action":"clarify_intent"}]`},
			wantReason: `decision 1: action clarify_intent needs "answer"`,
		},
		{
			name:       "object without decisions",
			first:      llmtest.Response{Content: `{"result": "ok"}`},
			wantReason: `your answer is a JSON object without "decisions"`,
		},
		{
			name:       "empty answer",
			first:      llmtest.Response{Content: "  "},
			wantReason: "your answer was empty",
		},
		{
			name: "truncated at max_tokens",
			first: llmtest.Response{Content: `{"decisions":[{"dependency_rank":1,"action":"retrieve_api","recall_description":"Weath`,
				FinishReason: "length"},
			wantReason: "your answer was cut off at max_tokens (1024 tokens)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.first.PromptTokens, tt.first.CompletionTokens = 100, 10
			srv := llmtest.Script(t, tt.first, llmtest.Response{Content: valid, PromptTokens: 150, CompletionTokens: 20})

			res, err := newPlanner(t, srv.URL).Decide(context.Background(), testContext())
			require.NoError(t, err)
			assert.Equal(t, []planner.Decision{retrieve}, res.Decisions)
			assert.True(t, res.Repaired)
			assert.Contains(t, res.RepairReason, tt.wantReason)
			assert.Equal(t, planner.Usage{LLMCalls: 2, PromptTokens: 250, CompletionTokens: 30, Repaired: 1}, res.Usage)

			reqs := srv.Requests()
			require.Len(t, reqs, 2)
			assert.Equal(t, reqs[0].Messages, reqs[1].Messages[:2], "the repair call repeats the conversation")
			require.Len(t, reqs[1].Messages, 4)
			assert.Equal(t, "assistant", reqs[1].Messages[2].Role)
			if strings.TrimSpace(tt.first.Content) != "" {
				assert.Equal(t, tt.first.Content, reqs[1].Messages[2].Content, "the model sees its own answer")
			}
			assert.Equal(t, "user", reqs[1].Messages[3].Role)
			assert.Contains(t, reqs[1].Messages[3].Content, tt.wantReason, "the repair message says what was wrong")
		})
	}
}

func TestDecideInvalidTwice(t *testing.T) {
	long := "I think we should call the weather API " + strings.Repeat("because it is useful ", 20) + "END-OF-ANSWER"
	srv := llmtest.Script(t,
		llmtest.Response{Content: long, PromptTokens: 100, CompletionTokens: 50},
		llmtest.Response{Content: `[{"dependency_rank":1,"action":"call"}]`, PromptTokens: 200, CompletionTokens: 5},
		llmtest.Answer(retrieve), // never reached: one repair only
	)
	res, err := newPlanner(t, srv.URL).Decide(context.Background(), testContext())
	require.Error(t, err)
	assert.ErrorIs(t, err, llm.ErrInvalidOutput)
	assert.NotErrorIs(t, err, llm.ErrUnauthorized)
	msg := err.Error()
	assert.Contains(t, msg, "first answer: your answer contains no JSON")
	assert.Contains(t, msg, `repair answer: decision 1: action "call" is not one of call_api, direct_answer, retrieve_api, clarify_intent`)
	assert.Contains(t, msg, long[:200], "the first 200 characters of the raw output are quoted")
	assert.NotContains(t, msg, "END-OF-ANSWER", "not more than 200")
	assert.Contains(t, msg, `[{\"dependency_rank\":1,\"action\":\"call\"}]`)
	assert.Equal(t, 2, srv.Count())
	assert.Equal(t, planner.Usage{LLMCalls: 2, PromptTokens: 300, CompletionTokens: 55}, res.Usage, "usage is kept on errors")
	assert.Empty(t, res.Decisions)
}

func TestDecideHTTPErrors(t *testing.T) {
	tests := []struct {
		name      string
		status    int
		sentinel  error // nil: an ordinary, retryable error
		wantInMsg string
	}{
		{"401 unauthorized", http.StatusUnauthorized, llm.ErrUnauthorized, "401"},
		{"403 forbidden", http.StatusForbidden, llm.ErrUnauthorized, "403"},
		{"404 unknown model", http.StatusNotFound, llm.ErrRequestRejected, "404"},
		{"429 rate limited", http.StatusTooManyRequests, nil, "429"},
		{"500 server error", http.StatusInternalServerError, nil, "500"},
		{"503 unavailable", http.StatusServiceUnavailable, nil, "503"},
	}
	sentinels := []error{llm.ErrUnauthorized, llm.ErrRequestRejected, llm.ErrInvalidOutput}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.Script(t, llmtest.Response{Status: tt.status}, llmtest.Answer(retrieve))
			res, err := newPlanner(t, srv.URL).Decide(context.Background(), testContext())
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.wantInMsg)
			assert.Contains(t, err.Error(), "llm:"+testModel)
			for _, s := range sentinels {
				if s == tt.sentinel {
					assert.ErrorIs(t, err, s)
				} else {
					assert.NotErrorIs(t, err, s)
				}
			}
			var apiErr *openai.APIError
			require.ErrorAs(t, err, &apiErr, "the go-openai error stays in the chain")
			assert.Equal(t, tt.status, apiErr.HTTPStatusCode)
			assert.Equal(t, 1, srv.Count(), "HTTP errors are not repaired: retrying is the caller's call")
			assert.Equal(t, planner.Usage{}, res.Usage)
		})
	}

	t.Run("non-JSON error body", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "<html>bad gateway</html>", http.StatusBadGateway)
		}))
		defer srv.Close()
		_, err := newPlanner(t, srv.URL).Decide(context.Background(), testContext())
		require.Error(t, err)
		var reqErr *openai.RequestError
		require.ErrorAs(t, err, &reqErr)
		assert.Equal(t, http.StatusBadGateway, reqErr.HTTPStatusCode)
		for _, s := range sentinels {
			assert.NotErrorIs(t, err, s)
		}
	})

	t.Run("connection refused", func(t *testing.T) {
		srv := llmtest.Script(t)
		url := srv.URL
		srv.Close()
		_, err := newPlanner(t, url).Decide(context.Background(), testContext())
		require.Error(t, err)
		for _, s := range sentinels {
			assert.NotErrorIs(t, err, s)
		}
	})

	t.Run("timeout", func(t *testing.T) {
		srv := llmtest.Script(t, llmtest.Response{Content: llmtest.JSON(retrieve), Delay: 2 * time.Second})
		p := newPlanner(t, srv.URL, func(c *llm.Config) { c.Timeout = 50 * time.Millisecond })
		start := time.Now()
		_, err := p.Decide(context.Background(), testContext())
		require.Error(t, err)
		assert.Less(t, time.Since(start), time.Second)
		for _, s := range sentinels {
			assert.NotErrorIs(t, err, s)
		}
	})

	t.Run("context canceled", func(t *testing.T) {
		srv := llmtest.Script(t, llmtest.Answer(retrieve))
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := newPlanner(t, srv.URL).Decide(ctx, testContext())
		assert.ErrorIs(t, err, context.Canceled)
	})

	t.Run("error in the repair call", func(t *testing.T) {
		srv := llmtest.Script(t, llmtest.Response{Content: "nope"}, llmtest.Response{Status: http.StatusInternalServerError})
		res, err := newPlanner(t, srv.URL).Decide(context.Background(), testContext())
		require.Error(t, err)
		assert.NotErrorIs(t, err, llm.ErrInvalidOutput, "a failed repair call is retryable")
		assert.Contains(t, err.Error(), "repair call")
		assert.Equal(t, 1, res.Usage.LLMCalls)
	})
}

func TestDecideResponseFormatFallback(t *testing.T) {
	t.Run("auto falls back level by level and remembers", func(t *testing.T) {
		srv := llmtest.New(t, func(llmtest.Request) llmtest.Response { return llmtest.Answer(retrieve) })
		srv.RejectResponseFormat(true)
		p := newPlanner(t, srv.URL)

		res, err := p.Decide(context.Background(), testContext())
		require.NoError(t, err)
		assert.Equal(t, []planner.Decision{retrieve}, res.Decisions)
		assert.Equal(t, 1, res.Usage.LLMCalls, "the refused calls returned no completion")

		_, err = p.Decide(context.Background(), testContext())
		require.NoError(t, err)

		reqs := srv.Requests()
		require.Len(t, reqs, 4)
		assert.Equal(t, "json_schema", reqs[0].ResponseFormat)
		assert.Equal(t, "json_object", reqs[1].ResponseFormat, "retried with a JSON object")
		assert.Empty(t, reqs[2].ResponseFormat, "retried without response_format")
		assert.Equal(t, reqs[0].Messages, reqs[2].Messages)
		assert.Empty(t, reqs[3].ResponseFormat, "later calls do not ask again")
	})

	t.Run("a set format does not fall back", func(t *testing.T) {
		srv := llmtest.Script(t, llmtest.Answer(retrieve))
		srv.RejectResponseFormat(true)
		_, err := newPlanner(t, srv.URL, func(c *llm.Config) { c.Format = llm.FormatObject }).Decide(context.Background(), testContext())
		require.Error(t, err)
		assert.ErrorIs(t, err, llm.ErrRequestRejected)
		assert.Contains(t, err.Error(), "response_format")
		assert.Equal(t, 1, srv.Count())
	})

	t.Run("format none never asks", func(t *testing.T) {
		srv := llmtest.Script(t, llmtest.Answer(retrieve))
		_, err := newPlanner(t, srv.URL, func(c *llm.Config) { c.Format = llm.FormatNone }).Decide(context.Background(), testContext())
		require.NoError(t, err)
		assert.Empty(t, srv.Last(t).ResponseFormat)
	})

	t.Run("other 400s are not a rejection of response_format", func(t *testing.T) {
		srv := llmtest.Script(t, llmtest.Response{Status: http.StatusBadRequest, Message: "messages: too long"}, llmtest.Answer(retrieve))
		_, err := newPlanner(t, srv.URL).Decide(context.Background(), testContext())
		assert.ErrorIs(t, err, llm.ErrRequestRejected)
		assert.Equal(t, 1, srv.Count())
	})
}

func TestDecideRequestSettings(t *testing.T) {
	t.Run("base URL ending in /v1 and custom settings", func(t *testing.T) {
		srv := llmtest.Script(t, llmtest.Answer(retrieve))
		p := newPlanner(t, srv.URL+"/v1/", func(c *llm.Config) { c.MaxTokens = 300; c.Temperature = 0.5 })
		_, err := p.Decide(context.Background(), testContext())
		require.NoError(t, err)
		req := srv.Last(t)
		assert.Equal(t, "/v1/chat/completions", req.Path)
		assert.Equal(t, 300, req.MaxTokens)
		require.NotNil(t, req.Temperature)
		assert.InDelta(t, 0.5, *req.Temperature, 1e-6)
	})

	t.Run("reasoning model gets max_completion_tokens", func(t *testing.T) {
		srv := llmtest.Script(t, llmtest.Answer(retrieve))
		p := newPlanner(t, srv.URL, func(c *llm.Config) { c.Model = "o3-mini" })
		res, err := p.Decide(context.Background(), testContext())
		require.NoError(t, err)
		assert.Equal(t, "llm:o3-mini", res.Planner)
		req := srv.Last(t)
		assert.Zero(t, req.MaxTokens)
		assert.Equal(t, llm.DefaultMaxTokens, req.MaxCompletionTokens)
		assert.Nil(t, req.Temperature)
	})

	t.Run("no API key sends no bearer token", func(t *testing.T) {
		srv := llmtest.Script(t, llmtest.Answer(retrieve))
		p := newPlanner(t, srv.URL, func(c *llm.Config) { c.APIKey = "" })
		_, err := p.Decide(context.Background(), testContext())
		require.NoError(t, err)
		assert.Empty(t, srv.Last(t).APIKey)
	})
}

func TestDecideConcurrent(t *testing.T) {
	srv := llmtest.New(t, func(r llmtest.Request) llmtest.Response {
		if r.N%2 == 1 {
			return llmtest.Response{Content: "[]"} // some calls need the repair
		}
		return llmtest.Answer(retrieve)
	})
	p := newPlanner(t, srv.URL)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 16 {
		wg.Go(func() {
			res, err := p.Decide(context.Background(), testContext())
			if err == nil && len(res.Decisions) != 1 {
				err = fmt.Errorf("got %d decisions", len(res.Decisions))
			}
			if err != nil && !errors.Is(err, llm.ErrInvalidOutput) {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	assert.GreaterOrEqual(t, srv.Count(), 16)
}

// TestAPIKeyNeverInErrors drives every error path with an endpoint that echoes the key it
// received, and checks each message in the chain, the way a Temporal failure records them.
func TestAPIKeyNeverInErrors(t *testing.T) {
	echo := func(status int) llmtest.Responder {
		return func(r llmtest.Request) llmtest.Response {
			return llmtest.Response{Status: status, Message: "Incorrect API key provided: " + r.APIKey}
		}
	}
	tests := []struct {
		name    string
		respond llmtest.Responder
	}{
		{"401", echo(http.StatusUnauthorized)},
		{"403", echo(http.StatusForbidden)},
		{"400", echo(http.StatusBadRequest)},
		{"429", echo(http.StatusTooManyRequests)},
		{"500", echo(http.StatusInternalServerError)},
		{"invalid output twice", func(r llmtest.Request) llmtest.Response {
			return llmtest.Response{Content: "my key is " + r.APIKey}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, tt.respond)
			_, err := newPlanner(t, srv.URL).Decide(context.Background(), testContext())
			require.Error(t, err)
			assertNoKey(t, err)
		})
	}

	t.Run("non-JSON body echoing the key", func(t *testing.T) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "bad token "+r.Header.Get("Authorization"), http.StatusUnauthorized)
		}))
		defer srv.Close()
		_, err := newPlanner(t, srv.URL).Decide(context.Background(), testContext())
		require.Error(t, err)
		assert.ErrorIs(t, err, llm.ErrUnauthorized)
		assertNoKey(t, err)
	})

	t.Run("String and GoString", func(t *testing.T) {
		p := newPlanner(t, "http://localhost:1/v1")
		cfg := llm.Config{BaseURL: "http://localhost:1/v1", Model: testModel, APIKey: testKey}
		for _, s := range []string{
			p.String(), fmt.Sprint(p), fmt.Sprintf("%v %+v %#v %s", cfg, cfg, cfg, cfg),
		} {
			assert.NotContains(t, s, testKey)
		}
		assert.Contains(t, cfg.String(), "APIKey: set")
	})
}

// assertNoKey checks err and every error it wraps.
func assertNoKey(t *testing.T, err error) {
	t.Helper()
	queue := []error{err}
	for len(queue) > 0 {
		e := queue[0]
		queue = queue[1:]
		if e == nil {
			continue
		}
		assert.NotContains(t, e.Error(), testKey, "%T in the chain", e)
		switch u := e.(type) {
		case interface{ Unwrap() error }:
			queue = append(queue, u.Unwrap())
		case interface{ Unwrap() []error }:
			queue = append(queue, u.Unwrap()...)
		}
	}
}

// A prompt that would crowd out the answer lists fewer candidates, the lowest ranked left out
// first, and the schema offers only those it lists.
func TestDecideFitsTheContext(t *testing.T) {
	c := testContext()
	for i := range 40 {
		c.Candidates = append(c.Candidates, planner.Candidate{API: fmt.Sprintf("api.N%02d", i), Score: 1 - float64(i)/100,
			Description: strings.Repeat("A tool that does one thing well. ", 10)})
	}
	srv := llmtest.New(t, func(llmtest.Request) llmtest.Response { return llmtest.Answer(retrieve) })

	_, err := newPlanner(t, srv.URL).Decide(context.Background(), c)
	require.NoError(t, err)
	all := srv.Last(t)
	assert.Contains(t, all.User(), "api.N39", "no context size: every candidate")

	_, err = newPlanner(t, srv.URL, func(cfg *llm.Config) { cfg.ContextTokens = 4096; cfg.MaxTokens = 512 }).Decide(context.Background(), c)
	require.NoError(t, err)
	fit := srv.Last(t)
	prompt := utf8.RuneCountInString(fit.System()) + utf8.RuneCountInString(fit.User())
	assert.LessOrEqual(t, prompt, (4096-512)*3, "the prompt, at 3 characters a token, leaves room for the answer")
	assert.Contains(t, fit.User(), "api.N00", "the best candidates stay")
	assert.NotContains(t, fit.User(), "api.N39", "the lowest ranked go")
	assert.Contains(t, string(fit.Schema), `"api.N00"`)
	assert.NotContains(t, string(fit.Schema), `"api.N39"`, "the schema offers only the candidates shown")
}
