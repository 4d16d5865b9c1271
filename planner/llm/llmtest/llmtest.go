// Package llmtest is a scripted stand-in for an OpenAI-compatible chat-completions endpoint.
// Tests point the real go-openai client (through planner/llm or directly) at Server.URL, so
// that request encoding, response decoding, HTTP error handling and retries are exercised
// exactly as against OpenAI, vLLM or Ollama, while each answer is decided by the test: a
// Responder function, or a list of canned Responses consumed in order.
//
// The server answers POST .../chat/completions under any prefix, so both Server.URL and
// Server.URL+"/v1" work as a base URL. It records every request (model, messages,
// response_format type, max tokens, bearer token) for assertions, can reject response_format
// with a 400 the way servers without JSON mode do, and is safe for concurrent use.
package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/naviagent/navi/planner"
)

// Message is one chat message of a request.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Request is what the server received in one call.
type Request struct {
	// N is the call's number on this server, from 1.
	N     int
	Path  string
	Model string
	// Messages in the order sent: usually system, user, and for a repair call the previous
	// assistant answer and a second user message.
	Messages []Message
	// ResponseFormat is the response_format type ("json_schema", "json_object"), "" when none
	// was sent; Schema is the schema of a json_schema one.
	ResponseFormat      string
	Schema              json.RawMessage
	MaxTokens           int
	MaxCompletionTokens int
	// Temperature is nil when the request carried none.
	Temperature *float64
	// APIKey is the bearer token of the Authorization header, "" when none was sent.
	APIKey string
}

// System is the content of the first system message, "" if none.
func (r Request) System() string { return r.first("system") }

// User is the content of the first user message, "" if none.
func (r Request) User() string { return r.first("user") }

// Last is the last message, the zero Message if there is none.
func (r Request) Last() Message {
	if len(r.Messages) == 0 {
		return Message{}
	}
	return r.Messages[len(r.Messages)-1]
}

func (r Request) first(role string) string {
	for _, m := range r.Messages {
		if m.Role == role {
			return m.Content
		}
	}
	return ""
}

// Response is what the server answers to one call.
type Response struct {
	// Content is the assistant message.
	Content string
	// FinishReason defaults to "stop"; "length" simulates an answer cut at max_tokens.
	FinishReason string
	// Status, when set and not 200, makes the call fail with that HTTP status and an
	// OpenAI-style error body {"error": {"message", "type", "param", "code"}}.
	Status int
	// Message is the error message for Status; by default the status text.
	Message string
	// PromptTokens and CompletionTokens are reported as usage; zero means a word count of
	// the request's messages and of Content.
	PromptTokens     int
	CompletionTokens int
	// Delay holds the answer back, for timeout tests.
	Delay time.Duration
}

// Responder decides the answer to one request.
type Responder func(Request) Response

// Server is a running scripted endpoint.
type Server struct {
	// URL is the server's root, e.g. http://127.0.0.1:1234. URL and URL+"/v1" both work as
	// go-openai's BaseURL.
	URL string

	srv     *httptest.Server
	respond Responder

	mu           sync.Mutex
	requests     []Request
	rejectFormat bool
	busy         time.Duration
}

// New starts a server whose answers come from respond. It is closed when the test ends.
func New(t testing.TB, respond Responder) *Server {
	t.Helper()
	s := &Server{respond: respond}
	s.srv = httptest.NewServer(http.HandlerFunc(s.handle))
	s.URL = s.srv.URL
	t.Cleanup(s.Close)
	return s
}

// Script starts a server that answers with responses in order; calls beyond the script get
// a 500 that says so (and fail the assertions on call counts that tests make anyway).
func Script(t testing.TB, responses ...Response) *Server {
	t.Helper()
	return New(t, Scripted(responses...))
}

// Scripted is a Responder that gives responses in order, then 500s. It is safe for
// concurrent use; with concurrent callers the order is the order of arrival.
func Scripted(responses ...Response) Responder {
	var mu sync.Mutex
	next := 0
	return func(Request) Response {
		mu.Lock()
		defer mu.Unlock()
		if next >= len(responses) {
			return Response{Status: http.StatusInternalServerError,
				Message: fmt.Sprintf("llmtest: script exhausted after %d responses", len(responses))}
		}
		next++
		return responses[next-1]
	}
}

// Close shuts the server down; it is safe to call more than once.
func (s *Server) Close() { s.srv.Close() }

// RejectResponseFormat makes the server answer any request carrying response_format with a
// 400 naming the field, as servers without JSON mode do, without consulting the responder.
// Such requests are recorded like the others.
func (s *Server) RejectResponseFormat(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rejectFormat = on
}

// Requests returns a copy of the requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Count is the number of requests received so far.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// Busy is the total time the server has spent answering requests, from reading a request to
// writing its answer (Delay included): the time spent in the endpoint, as a real model's
// inference would be, without the client's encoding or the connection. Benchmarks subtract it
// to measure what is not the LLM.
func (s *Server) Busy() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.busy
}

// Last is the last request received; it fails the test if there is none.
func (s *Server) Last(t testing.TB) Request {
	t.Helper()
	reqs := s.Requests()
	if len(reqs) == 0 {
		t.Fatalf("llmtest: no request received")
	}
	return reqs[len(reqs)-1]
}

// wireRequest is the part of a chat-completion request the server reads.
type wireRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	ResponseFormat *struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Schema json.RawMessage `json:"schema"`
		} `json:"json_schema"`
	} `json:"response_format"`
	MaxTokens           int      `json:"max_tokens"`
	MaxCompletionTokens int      `json:"max_completion_tokens"`
	Temperature         *float64 `json:"temperature"`
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	defer func() {
		s.mu.Lock()
		s.busy += time.Since(start)
		s.mu.Unlock()
	}()
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		writeError(w, http.StatusNotFound, fmt.Sprintf("llmtest: no route for %s %s", r.Method, r.URL.Path), "")
		return
	}
	var wr wireRequest
	if err := json.NewDecoder(r.Body).Decode(&wr); err != nil {
		writeError(w, http.StatusBadRequest, "llmtest: cannot decode request body: "+err.Error(), "")
		return
	}
	req := Request{
		Path:                r.URL.Path,
		Model:               wr.Model,
		MaxTokens:           wr.MaxTokens,
		MaxCompletionTokens: wr.MaxCompletionTokens,
		Temperature:         wr.Temperature,
		APIKey:              strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "),
	}
	if wr.ResponseFormat != nil {
		req.ResponseFormat = wr.ResponseFormat.Type
		if js := wr.ResponseFormat.JSONSchema; js != nil {
			req.Schema = js.Schema
		}
	}
	for _, m := range wr.Messages {
		req.Messages = append(req.Messages, Message{Role: m.Role, Content: content(m.Content)})
	}

	s.mu.Lock()
	req.N = len(s.requests) + 1
	s.requests = append(s.requests, req)
	reject := s.rejectFormat && req.ResponseFormat != ""
	s.mu.Unlock()

	if reject {
		writeError(w, http.StatusBadRequest,
			"response_format is not supported by this model", "response_format")
		return
	}

	resp := s.respond(req)
	if resp.Delay > 0 {
		select {
		case <-time.After(resp.Delay):
		case <-r.Context().Done():
			return
		}
	}
	if resp.Status != 0 && resp.Status != http.StatusOK {
		msg := resp.Message
		if msg == "" {
			msg = http.StatusText(resp.Status)
		}
		writeError(w, resp.Status, msg, "")
		return
	}
	writeCompletion(w, req, resp)
}

// content reads a message content: a string, or the parts form [{"type":"text","text":...}].
func content(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &parts) == nil {
		texts := make([]string, len(parts))
		for i, p := range parts {
			texts[i] = p.Text
		}
		return strings.Join(texts, "")
	}
	return string(raw)
}

func writeCompletion(w http.ResponseWriter, req Request, resp Response) {
	finish := resp.FinishReason
	if finish == "" {
		finish = "stop"
	}
	prompt, completion := resp.PromptTokens, resp.CompletionTokens
	if prompt == 0 {
		for _, m := range req.Messages {
			prompt += len(strings.Fields(m.Content))
		}
	}
	if completion == 0 {
		completion = len(strings.Fields(resp.Content))
	}
	body := map[string]any{
		"id":      fmt.Sprintf("chatcmpl-llmtest-%d", req.N),
		"object":  "chat.completion",
		"created": time.Now().Unix(),
		"model":   req.Model,
		"choices": []any{map[string]any{
			"index":         0,
			"message":       map[string]any{"role": "assistant", "content": resp.Content},
			"finish_reason": finish,
		}},
		"usage": map[string]any{
			"prompt_tokens":     prompt,
			"completion_tokens": completion,
			"total_tokens":      prompt + completion,
		},
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(body)
}

// writeError writes an OpenAI-style error body.
func writeError(w http.ResponseWriter, status int, message, param string) {
	typ, code := "invalid_request_error", any(nil)
	switch {
	case status == http.StatusUnauthorized:
		code = "invalid_api_key"
	case status == http.StatusForbidden:
		typ = "permission_error"
	case status == http.StatusTooManyRequests:
		typ, code = "rate_limit_error", "rate_limit_exceeded"
	case status >= 500:
		typ = "server_error"
	}
	var p any
	if param != "" {
		p = param
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"error": map[string]any{"message": message, "type": typ, "param": p, "code": code},
	})
}

// JSON is the answer {"decisions":[...]} for decisions, as the LLM planner asks for it.
func JSON(decisions ...planner.Decision) string {
	return mustJSON(map[string]any{"decisions": nonNil(decisions)})
}

// Array is the bare JSON array of decisions, as Appendix E.3.1 specifies it.
func Array(decisions ...planner.Decision) string {
	return mustJSON(nonNil(decisions))
}

// Fenced wraps content in a ```json Markdown fence, as chat models often do.
func Fenced(content string) string {
	return "```json\n" + content + "\n```"
}

// Answer is a Response with JSON(decisions...) as its content.
func Answer(decisions ...planner.Decision) Response {
	return Response{Content: JSON(decisions...)}
}

func nonNil(ds []planner.Decision) []planner.Decision {
	if ds == nil {
		return []planner.Decision{}
	}
	return ds
}

func mustJSON(v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("llmtest: %v", err))
	}
	return string(raw)
}
