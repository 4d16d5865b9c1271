package neo4j

import (
	"context"
	"fmt"
	"os"
	"testing"
)

func TestZZExplore(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip()
	}
	s, err := Open(context.Background(), Options{URI: os.Getenv("NAVI_TEST_NEO4J_URI"), User: os.Getenv("NAVI_TEST_NEO4J_USER"), Password: os.Getenv("NAVI_TEST_NEO4J_PASSWORD")})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.run(context.Background(), "x", false, os.Getenv("ZZQ"), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res.Records {
		fmt.Println(r.Values...)
	}
}
