package llmtest_test

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/sashabaranov/go-openai"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/naviagent/navi/planner"
	"github.com/naviagent/navi/planner/llm/llmtest"
)

func client(baseURL, key string) *openai.Client {
	cfg := openai.DefaultConfig(key)
	cfg.BaseURL = baseURL
	return openai.NewClientWithConfig(cfg)
}

func chat(format bool) openai.ChatCompletionRequest {
	req := openai.ChatCompletionRequest{
		Model:     "m",
		MaxTokens: 64,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: "be brief"},
			{Role: openai.ChatMessageRoleUser, Content: "say hello world"},
		},
	}
	if format {
		req.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
	}
	return req
}

func TestScriptedServer(t *testing.T) {
	srv := llmtest.Script(t,
		llmtest.Response{Content: "hello there world"},
		llmtest.Response{Content: "cut", FinishReason: "length", PromptTokens: 7, CompletionTokens: 3},
		llmtest.Response{Status: http.StatusTooManyRequests, Message: "slow down"},
	)
	ctx := context.Background()

	resp, err := client(srv.URL+"/v1", "key-1").CreateChatCompletion(ctx, chat(true))
	require.NoError(t, err)
	require.Len(t, resp.Choices, 1)
	assert.Equal(t, "hello there world", resp.Choices[0].Message.Content)
	assert.Equal(t, openai.FinishReasonStop, resp.Choices[0].FinishReason)
	assert.Equal(t, 5, resp.Usage.PromptTokens, "default: words of the messages")
	assert.Equal(t, 3, resp.Usage.CompletionTokens, "default: words of the content")

	resp, err = client(srv.URL, "").CreateChatCompletion(ctx, chat(false))
	require.NoError(t, err)
	assert.Equal(t, openai.FinishReasonLength, resp.Choices[0].FinishReason)
	assert.Equal(t, 7, resp.Usage.PromptTokens)
	assert.Equal(t, 3, resp.Usage.CompletionTokens)

	_, err = client(srv.URL, "").CreateChatCompletion(ctx, chat(false))
	var apiErr *openai.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusTooManyRequests, apiErr.HTTPStatusCode)
	assert.Equal(t, "slow down", apiErr.Message)
	assert.Equal(t, "rate_limit_error", apiErr.Type)

	_, err = client(srv.URL, "").CreateChatCompletion(ctx, chat(false))
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusInternalServerError, apiErr.HTTPStatusCode)
	assert.Contains(t, apiErr.Message, "script exhausted after 3 responses")

	reqs := srv.Requests()
	require.Len(t, reqs, 4)
	assert.Equal(t, 1, reqs[0].N)
	assert.Equal(t, "/v1/chat/completions", reqs[0].Path)
	assert.Equal(t, "/chat/completions", reqs[1].Path)
	assert.Equal(t, "m", reqs[0].Model)
	assert.Equal(t, "json_object", reqs[0].ResponseFormat)
	assert.Empty(t, reqs[1].ResponseFormat)
	assert.Equal(t, 64, reqs[0].MaxTokens)
	assert.Equal(t, "key-1", reqs[0].APIKey)
	assert.Empty(t, reqs[1].APIKey)
	assert.Equal(t, "be brief", reqs[0].System())
	assert.Equal(t, "say hello world", reqs[0].User())
	assert.Equal(t, llmtest.Message{Role: "user", Content: "say hello world"}, reqs[0].Last())
	assert.Nil(t, reqs[0].Temperature)
}

func TestRejectResponseFormat(t *testing.T) {
	srv := llmtest.New(t, func(llmtest.Request) llmtest.Response { return llmtest.Response{Content: "{}"} })
	srv.RejectResponseFormat(true)
	_, err := client(srv.URL, "").CreateChatCompletion(context.Background(), chat(true))
	var apiErr *openai.APIError
	require.ErrorAs(t, err, &apiErr)
	assert.Equal(t, http.StatusBadRequest, apiErr.HTTPStatusCode)
	assert.Contains(t, apiErr.Message, "response_format")
	require.NotNil(t, apiErr.Param)
	assert.Equal(t, "response_format", *apiErr.Param)

	_, err = client(srv.URL, "").CreateChatCompletion(context.Background(), chat(false))
	require.NoError(t, err)
	assert.Equal(t, 2, srv.Count())
}

func TestServerConcurrent(t *testing.T) {
	srv := llmtest.New(t, func(r llmtest.Request) llmtest.Response { return llmtest.Response{Content: r.User()} })
	c := client(srv.URL, "")
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for range 32 {
		wg.Go(func() {
			resp, err := c.CreateChatCompletion(context.Background(), chat(false))
			if err == nil && resp.Choices[0].Message.Content != "say hello world" {
				err = errors.New("wrong echo: " + resp.Choices[0].Message.Content)
			}
			if err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	assert.Equal(t, 32, srv.Count())
	seen := map[int]bool{}
	for _, r := range srv.Requests() {
		seen[r.N] = true
	}
	assert.Len(t, seen, 32, "request numbers are unique")
}

func TestBusy(t *testing.T) {
	srv := llmtest.Script(t, llmtest.Response{Content: "slow", Delay: 30 * time.Millisecond}, llmtest.Response{Content: "fast"})
	assert.Zero(t, srv.Busy())
	start := time.Now()
	for range 2 {
		_, err := client(srv.URL, "").CreateChatCompletion(context.Background(), chat(false))
		require.NoError(t, err)
	}
	busy := srv.Busy()
	assert.GreaterOrEqual(t, busy, 30*time.Millisecond, "the delay is time in the endpoint")
	assert.Less(t, busy, time.Since(start), "the client's side is not")
}

func TestHelpers(t *testing.T) {
	d := planner.Decision{DependencyRank: 1, Action: planner.CallAPI, TargetAPI: "A", Params: map[string]string{"x": "1"}}
	assert.JSONEq(t, `{"decisions":[{"dependency_rank":1,"action":"call_api","target_api":"A","params":{"x":"1"}}]}`, llmtest.JSON(d))
	assert.JSONEq(t, `[{"dependency_rank":1,"action":"call_api","target_api":"A","params":{"x":"1"}}]`, llmtest.Array(d))
	assert.Equal(t, `{"decisions":[]}`, llmtest.JSON())
	assert.Equal(t, "```json\n[]\n```", llmtest.Fenced("[]"))
	assert.Equal(t, llmtest.Response{Content: llmtest.JSON(d)}, llmtest.Answer(d))
}

func TestUnknownRoute(t *testing.T) {
	srv := llmtest.Script(t)
	resp, err := http.Get(srv.URL + "/v1/models")
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp.StatusCode)
	assert.Zero(t, srv.Count())
}
