// Package llm is Navi's LLM planner: it asks any OpenAI-compatible chat-completions endpoint
// (OpenAI, DeepSeek, vLLM, Ollama...) through github.com/sashabaranov/go-openai for the next
// decisions, with the NaviAgent inference prompt (Appendix E.3.1) as the system message.
//
// One Decide is at most two model calls: the answer, and when that answer is not valid
// decisions (bad JSON, an unknown action, a missing field, cut off at max_tokens) exactly one
// repair call that tells the model what was wrong. Errors are classified for the activity
// that runs the planner: ErrUnauthorized (401/403) and ErrRequestRejected (other 4xx) will not
// go away on retry and ErrInvalidOutput means the model failed twice, while transport errors,
// 429 and 5xx come back as ordinary errors worth retrying.
//
// The API key never appears in an error, in String or in GoString output.
package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"github.com/sashabaranov/go-openai"

	"github.com/naviagent/navi/planner"
)

// Errors a caller classifies with errors.Is.
var (
	// ErrUnauthorized: the endpoint refused the credentials (HTTP 401 or 403). Retrying with
	// the same key will not help.
	ErrUnauthorized = errors.New("llm: endpoint refused the credentials")
	// ErrRequestRejected: the endpoint refused the request itself (a 4xx other than 401, 403
	// and 429: unknown model, bad parameter). Retrying the same request will not help.
	ErrRequestRejected = errors.New("llm: endpoint rejected the request")
	// ErrInvalidOutput: the model's answer was not valid decisions, and neither was its
	// answer to the repair message. The error's message says what was wrong both times.
	ErrInvalidOutput = errors.New("llm: invalid planner output")
)

// rawHead is how much of a raw model answer an ErrInvalidOutput message quotes.
const rawHead = 200

// Planner is the LLM planner. It is safe for concurrent use.
type Planner struct {
	cfg    Config
	client *openai.Client
	// downgrades counts the response_format levels the endpoint has rejected (Format auto),
	// so that later calls do not pay for the rejected round trips again.
	downgrades atomic.Int32
}

var _ planner.Planner = (*Planner)(nil)

// New checks cfg, fills its defaults and returns a planner. Errors name the setting (and its
// environment variable) that is wrong; no network call is made.
func New(cfg Config) (*Planner, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	oc.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	oc.HTTPClient = &http.Client{Timeout: cfg.Timeout}
	return &Planner{cfg: cfg, client: openai.NewClientWithConfig(oc)}, nil
}

// Name is "llm:" followed by the model, the Result.Planner of every decision.
func (p *Planner) Name() string { return "llm:" + p.cfg.Model }

// String describes the planner without the API key.
func (p *Planner) String() string { return p.Name() + " " + p.cfg.String() }

// Decide asks the model for the next decisions. The Result's Usage counts every completion
// received (one, or two when a repair was needed) and is filled in on errors too, so that a
// failed step still accounts for its tokens.
func (p *Planner) Decide(ctx context.Context, c planner.Context) (planner.Result, error) {
	res, err := p.decide(ctx, c, planner.Result{Planner: p.Name()})
	return res, p.redact(err)
}

func (p *Planner) decide(ctx context.Context, c planner.Context, res planner.Result) (planner.Result, error) {
	c, user := p.prompt(c)
	msgs := []openai.ChatCompletionMessage{
		{Role: openai.ChatMessageRoleSystem, Content: systemPrompt()},
		{Role: openai.ChatMessageRoleUser, Content: user},
	}
	schema := Schema(c)
	first, err := p.complete(ctx, msgs, schema, &res.Usage)
	if err != nil {
		return res, err
	}
	ds, bad1 := p.parse(first)
	if bad1 == nil {
		res.Decisions = ds
		return res, nil
	}

	// One repair: show the model its own answer and say exactly what was wrong with it.
	msgs = append(msgs,
		openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: nonEmpty(first.content)},
		openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: repairMessage(bad1)},
	)
	second, err := p.complete(ctx, msgs, schema, &res.Usage)
	if err != nil {
		return res, fmt.Errorf("repair call after an invalid answer (%v): %w", bad1, err)
	}
	ds, bad2 := p.parse(second)
	if bad2 != nil {
		return res, fmt.Errorf("%w from %s: first answer: %v (output %q); repair answer: %v (output %q)",
			ErrInvalidOutput, p.Name(), bad1, head(first.content), bad2, head(second.content))
	}
	res.Decisions = ds
	res.Usage.Repaired++
	res.Repaired = true
	res.RepairReason = bad1.Error()
	return res, nil
}

// runesPerToken is a low estimate of the characters a token of these prompts holds (English
// prose, names and JSON run 3.5 to 4 with BPE tokenizers), so that an estimate errs long.
const runesPerToken = 3

// prompt is the user message for c, and c with the candidates that message lists: the
// lowest-ranked (the last) are left out while the prompt, estimated, would not leave MaxTokens
// of the model's context for the answer; one candidate always stays. The schema then offers
// only the candidates the prompt shows.
func (p *Planner) prompt(c planner.Context) (planner.Context, string) {
	user := userPrompt(c)
	if p.cfg.ContextTokens == 0 {
		return c, user
	}
	budget := (p.cfg.ContextTokens-p.cfg.MaxTokens)*runesPerToken - utf8.RuneCountInString(systemPrompt())
	for len(c.Candidates) > 1 && utf8.RuneCountInString(user) > budget {
		c.Candidates = c.Candidates[:len(c.Candidates)-1]
		user = userPrompt(c)
	}
	return c, user
}

// answer is one completion's text and why it stopped.
type answer struct {
	content string
	finish  openai.FinishReason
	refusal string
}

// complete makes one chat-completion call (more when the endpoint rejects response_format
// and Format is auto) and adds what it cost to usage.
func (p *Planner) complete(ctx context.Context, msgs []openai.ChatCompletionMessage, schema json.RawMessage, usage *planner.Usage) (answer, error) {
	for {
		level := p.format()
		resp, err := p.client.CreateChatCompletion(ctx, p.request(msgs, level, schema))
		if err != nil && p.cfg.Format == FormatAuto && level != FormatNone && rejectsResponseFormat(err) {
			// Many OpenAI-compatible servers (older vLLM, some proxies) know no json_schema, or
			// no response_format at all. The prompt asks for JSON anyway: go one level down,
			// for good.
			i := int32(slices.Index(autoLevels, level))
			p.downgrades.CompareAndSwap(i, i+1)
			continue
		}
		if err != nil {
			return answer{}, p.classify(err)
		}
		// A refused call (a response_format probe) returned no usage; count completions only.
		usage.LLMCalls++
		usage.PromptTokens += resp.Usage.PromptTokens
		usage.CompletionTokens += resp.Usage.CompletionTokens
		if len(resp.Choices) == 0 {
			return answer{}, fmt.Errorf("llm: %s returned no choices", p.Name())
		}
		ch := resp.Choices[0]
		return answer{content: ch.Message.Content, finish: ch.FinishReason, refusal: ch.Message.Refusal}, nil
	}
}

// autoLevels are the formats FormatAuto goes through, in order.
var autoLevels = []Format{FormatSchema, FormatObject, FormatNone}

// format is the response_format of the next call.
func (p *Planner) format() Format {
	if p.cfg.Format != FormatAuto {
		return p.cfg.Format
	}
	return autoLevels[min(int(p.downgrades.Load()), len(autoLevels)-1)]
}

func (p *Planner) request(msgs []openai.ChatCompletionMessage, format Format, schema json.RawMessage) openai.ChatCompletionRequest {
	req := openai.ChatCompletionRequest{
		Model:       p.cfg.Model,
		Messages:    msgs,
		MaxTokens:   p.cfg.MaxTokens,
		Temperature: p.cfg.Temperature,
	}
	if req.Temperature == 0 {
		// go-openai drops a zero temperature (omitempty) and the endpoint would then sample at
		// its default, usually 1. The smallest positive float32 is the library author's
		// advice for "0" (sashabaranov/go-openai#9).
		req.Temperature = math.SmallestNonzeroFloat32
	}
	if format == FormatSchema && schema == nil {
		format = FormatObject
	}
	switch format {
	case FormatSchema:
		req.ResponseFormat = &openai.ChatCompletionResponseFormat{
			Type:       openai.ChatCompletionResponseFormatTypeJSONSchema,
			JSONSchema: &openai.ChatCompletionResponseFormatJSONSchema{Name: "navi_decisions", Schema: schema},
		}
	case FormatObject:
		req.ResponseFormat = &openai.ChatCompletionResponseFormat{Type: openai.ChatCompletionResponseFormatTypeJSONObject}
	}
	if errors.Is(openai.NewReasoningValidator().Validate(req), openai.ErrReasoningModelMaxTokensDeprecated) {
		// go-openai refuses max_tokens and a temperature for reasoning models (o1, o3, o4,
		// gpt-5...): cap with max_completion_tokens and let the model sample as it must.
		req.MaxCompletionTokens, req.MaxTokens = req.MaxTokens, 0
		req.Temperature = 0
	}
	return req
}

// parse validates an answer; a parse failure of an answer cut off at max_tokens is reported
// as the cut, which is the cause. (A cut answer that still parses is complete: no JSON
// object or array is a valid prefix of a longer one.)
func (p *Planner) parse(a answer) ([]planner.Decision, error) {
	ds, err := ParseDecisions(a.content)
	if err == nil {
		return ds, nil
	}
	switch {
	case a.finish == openai.FinishReasonLength:
		return nil, fmt.Errorf("your answer was cut off at max_tokens (%d tokens)", p.cfg.MaxTokens)
	case strings.TrimSpace(a.content) == "" && a.refusal != "":
		return nil, fmt.Errorf("your answer was a refusal instead of decisions: %q", head(a.refusal))
	case a.finish == openai.FinishReasonContentFilter:
		return nil, fmt.Errorf("your answer was stopped by the content filter: %v", err)
	}
	return nil, err
}

// repairMessage is the user message of the repair call.
func repairMessage(problem error) string {
	return fmt.Sprintf("Your previous answer was invalid: %v.\n"+
		"Answer again with only the JSON object {\"decisions\": [...]} as the Response Specification says: "+
		"each decision needs \"dependency_rank\" and an \"action\" among %s; call_api needs \"target_api\" "+
		"(and \"params\"), retrieve_api needs \"recall_description\", direct_answer and clarify_intent need \"answer\". "+
		"Keep \"intent\" and \"analysis\" short.", problem, actionList())
}

// classify wraps an error of go-openai with the sentinel the caller acts on.
func (p *Planner) classify(err error) error {
	p.scrub(err)
	code := statusCode(err)
	switch {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return fmt.Errorf("planner %s: %w: %w", p.Name(), ErrUnauthorized, err)
	case code == http.StatusTooManyRequests || code == http.StatusRequestTimeout || code == http.StatusConflict:
		return fmt.Errorf("planner %s: chat completion: %w", p.Name(), err)
	case code >= 400 && code < 500:
		return fmt.Errorf("planner %s: %w: %w", p.Name(), ErrRequestRejected, err)
	}
	// Transport errors (code 0), timeouts and 5xx: ordinary errors, worth retrying.
	return fmt.Errorf("planner %s: chat completion: %w", p.Name(), err)
}

// statusCode is the HTTP status of a go-openai error, 0 when there was no HTTP answer.
func statusCode(err error) int {
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) {
		return apiErr.HTTPStatusCode
	}
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) {
		return reqErr.HTTPStatusCode
	}
	return 0
}

// rejectsResponseFormat reports whether err is a 400 (or 422) that mentions response_format.
func rejectsResponseFormat(err error) bool {
	code := statusCode(err)
	if code != http.StatusBadRequest && code != http.StatusUnprocessableEntity {
		return false
	}
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) && apiErr.Param != nil && *apiErr.Param == "response_format" {
		return true
	}
	// The message or the raw body (RequestError) names the field.
	return strings.Contains(strings.ToLower(err.Error()), "response_format")
}

// minRedactLen: shorter keys are not searched for, because replacing one or two characters
// everywhere would garble every message while hiding nothing.
const minRedactLen = 4

// scrub removes the API key from the go-openai errors in err's chain, in place. Endpoints
// sometimes echo the key they were given ("Incorrect API key provided: ..."). It runs before
// classify wraps err, because fmt.Errorf computes its message once, and because callers may
// serialize the whole chain (a Temporal failure keeps every cause's message).
func (p *Planner) scrub(err error) {
	key := p.cfg.APIKey
	if len(key) < minRedactLen {
		return
	}
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) {
		apiErr.Message = strings.ReplaceAll(apiErr.Message, key, "[REDACTED]")
	}
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) {
		reqErr.Body = []byte(strings.ReplaceAll(string(reqErr.Body), key, "[REDACTED]"))
	}
}

// redact is the last guard at Decide's boundary: should the key still appear in the message
// (through an error scrub does not know), the chain is replaced by a redacted message that
// unwraps only to the sentinels and context errors the original matched, so that no cause
// in the chain can carry the key further.
func (p *Planner) redact(err error) error {
	key := p.cfg.APIKey
	if err == nil || len(key) < minRedactLen || !strings.Contains(err.Error(), key) {
		return err
	}
	r := &redactedError{msg: strings.ReplaceAll(err.Error(), key, "[REDACTED]")}
	for _, target := range []error{ErrUnauthorized, ErrRequestRejected, ErrInvalidOutput, context.Canceled, context.DeadlineExceeded} {
		if errors.Is(err, target) {
			r.is = append(r.is, target)
		}
	}
	return r
}

type redactedError struct {
	msg string
	is  []error
}

func (e *redactedError) Error() string   { return e.msg }
func (e *redactedError) Unwrap() []error { return e.is }

// head is the first rawHead runes of a raw answer.
func head(s string) string {
	r := []rune(s)
	if len(r) <= rawHead {
		return s
	}
	return string(r[:rawHead]) + "…"
}

// nonEmpty keeps an empty assistant message valid: endpoints reject an assistant message
// with no content.
func nonEmpty(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(empty answer)"
	}
	return s
}
