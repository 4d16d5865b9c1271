package config

import (
	"fmt"
	"net"
	"strings"

	"go.temporal.io/sdk/client"
	"google.golang.org/grpc"
	"google.golang.org/grpc/resolver"
	"google.golang.org/grpc/resolver/manual"
)

// frontendsScheme names the gRPC resolver of a list of Temporal frontends.
const frontendsScheme = "navi-frontends"

// Frontends splits a Temporal address into its frontends: "host:port" or a comma-separated
// list "host1:port1,host2:port2" of the frontends of one cluster. An entry that is no
// host:port is an error naming it.
func Frontends(address string) ([]string, error) {
	var out []string
	for _, a := range strings.Split(address, ",") {
		a = strings.TrimSpace(a)
		if _, port, err := net.SplitHostPort(a); err != nil || port == "" {
			return nil, fmt.Errorf("%q: want host:port", a)
		}
		out = append(out, a)
	}
	return out, nil
}

// WithFrontends points o at every frontend of address. One frontend is the SDK's plain
// host:port. Several are resolved to all of them at once, and the SDK's round-robin balancing
// spreads calls over them and stops using one that goes down, so that clients and workers
// outlive the loss of a Temporal node.
func WithFrontends(o client.Options, address string) (client.Options, error) {
	fe, err := Frontends(address)
	if err != nil {
		return o, err
	}
	if len(fe) == 1 {
		o.HostPort = fe[0]
		return o, nil
	}
	r := manual.NewBuilderWithScheme(frontendsScheme)
	state := resolver.State{}
	for _, a := range fe {
		state.Addresses = append(state.Addresses, resolver.Address{Addr: a})
	}
	r.InitialState(state)
	o.HostPort = frontendsScheme + ":///" + strings.Join(fe, ",")
	o.ConnectionOptions.DialOptions = append(o.ConnectionOptions.DialOptions, grpc.WithResolvers(r))
	return o, nil
}
