package neo4j

import (
	"context"
	"fmt"
	"testing"

	driver "github.com/neo4j/neo4j-go-driver/v5/neo4j"
	"github.com/stretchr/testify/assert"
)

func TestTerms(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"What's the weather in Paris?", []string{"weather", "paris"}},
		{"weather WEATHER Weather", []string{"weather"}},
		{"hotels near 75001, please", []string{"hotels", "near", "75001"}},
		{"Zürich café", []string{"zürich", "café"}},
		{"a b cd", nil},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, Terms(tt.in), tt.in)
	}
}

func TestExplain(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want []string
		is   error
	}{
		{"unauthorized", &driver.Neo4jError{Code: "Neo.ClientError.Security.Unauthorized", Msg: "bad"},
			[]string{"authentication failed", `user "neo4j"`, "NAVI_NEO4J_PASSWORD"}, ErrUnauthorized},
		{"constraint", &driver.Neo4jError{Code: "Neo.ClientError.Schema.ConstraintValidationFailed", Msg: "Node(1) already exists with label `API`"},
			[]string{"uniqueness constraint", "already exists with label `API`", "nothing was written"}, nil},
		{"deadline", fmt.Errorf("dial: %w", context.DeadlineExceeded), []string{"neo4j unreachable", "make up"}, ErrUnavailable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Explain("bolt://db:7687", "neo4j", tt.err)
			for _, w := range tt.want {
				assert.Contains(t, err.Error(), w)
			}
			assert.Contains(t, err.Error(), "bolt://db:7687")
			if tt.is != nil {
				assert.ErrorIs(t, err, tt.is)
			}
		})
	}
}
