package main

// The association group and its connections, through go-msrpc's dcerpc package.
//
// The judge (and mqspec serve) carries one call at a time per connection, and a Start*Receive may wait while a
// cancel for it goes out, so the client keeps a connection per call in flight: every RemoteRead client made with
// remoteread.NewRemoteReadClient on one dcerpc.Dial (with WithNewTransport) is a new ncacn_ip_tcp connection bound
// into the association group of the first (go-msrpc sends the group's assoc_group_id in each later bind).
//
// go-msrpc closes a connection's transport whenever a call on it fails below the method's return value (an RPC
// fault, a response that does not decode, a broken socket): such a client is thrown away here.  When the group's
// last connection is gone the server ends the association, and the group with it, so the next call dials afresh
// (a new group).  The handles the old association gave are not tracked here: the application goes on using what
// the library gave it, as a program written over go-msrpc would.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/oiweiwei/go-msrpc/dcerpc"
	rpcerrors "github.com/oiweiwei/go-msrpc/dcerpc/errors"
	remoteread "github.com/oiweiwei/go-msrpc/msrpc/mqrr/remoteread/v1"
)

const callFailed = 0x800706BE // the HRESULT of RPC_S_CALL_FAILED: the connection broke under the call

// watchedConn tells, once per call, when the first byte of a request went out (the "pending" reply waits for it).
type watchedConn struct {
	net.Conn
	sent atomic.Pointer[func()]
}

func (c *watchedConn) Write(b []byte) (int, error) {
	n, err := c.Conn.Write(b)
	if hook := c.sent.Swap(nil); hook != nil {
		(*hook)()
	}
	return n, err
}

type dialer struct {
	mu   sync.Mutex
	last *watchedConn
}

func (d *dialer) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	var plain net.Dialer
	conn, err := plain.DialContext(ctx, network, address)
	if err != nil {
		return nil, err
	}
	watched := &watchedConn{Conn: conn}
	d.mu.Lock()
	d.last = watched
	d.mu.Unlock()
	return watched, nil
}

type connection struct {
	client remoteread.RemoteReadClient
	wire   *watchedConn
}

type pool struct {
	ctx      context.Context
	address  string
	bindOpts []dcerpc.Option
	mu       sync.Mutex
	bindMu   sync.Mutex
	dial     *dialer
	cc       dcerpc.Conn
	idle     []*connection
	live     int
}

func newPool(ctx context.Context, host string, port int, bindOpts []dcerpc.Option) *pool {
	return &pool{ctx: ctx, address: fmt.Sprintf("ncacn_ip_tcp:%s[%d]", host, port), bindOpts: bindOpts,
		dial: &dialer{}}
}

// take returns an idle connection or binds a new one into the group.
func (p *pool) take() (*connection, error) {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		c := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return c, nil
	}
	if p.cc == nil {
		cc, err := dcerpc.Dial(p.ctx, p.address, dcerpc.WithNewTransport(), dcerpc.WithDialer(p.dial),
			dcerpc.WithTimeout(time.Hour))
		if err != nil {
			p.mu.Unlock()
			return nil, err
		}
		p.cc = cc
	}
	cc := p.cc
	p.live++
	p.mu.Unlock()
	p.bindMu.Lock() // one bind at a time, so the connection dialed is the one this bind made
	client, err := remoteread.NewRemoteReadClient(p.ctx, cc, p.bindOpts...)
	p.dial.mu.Lock()
	wire := p.dial.last
	p.dial.last = nil
	p.dial.mu.Unlock()
	p.bindMu.Unlock()
	if err != nil {
		p.lost()
		return nil, err
	}
	return &connection{client: client, wire: wire}, nil
}

// lost counts a connection gone; with the group's last one, the group is gone too.
func (p *pool) lost() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.live--
	if p.live <= 0 && p.cc != nil {
		p.live = 0
		p.cc.Close(p.ctx)
		p.cc, p.idle = nil, nil
	}
}

// call runs fn on a connection of its own; broken tells whether go-msrpc closed it (fn's outputs were nil).
func (p *pool) call(sent func(), fn func(remoteread.RemoteReadClient) (ok bool, err error)) error {
	c, err := p.take()
	if err != nil {
		if sent != nil {
			sent()
		}
		return err
	}
	if sent != nil && c.wire != nil {
		c.wire.sent.Store(&sent)
	}
	answered, err := fn(c.client)
	if c.wire != nil {
		if hook := c.wire.sent.Swap(nil); hook != nil {
			(*hook)()
		}
	}
	if !answered {
		c.client.Conn().Close(p.ctx)
		p.lost()
		return err
	}
	p.mu.Lock()
	if p.cc != nil {
		p.idle = append(p.idle, c)
	}
	p.mu.Unlock()
	return err
}

func (p *pool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cc != nil {
		p.cc.Close(p.ctx)
	}
	p.cc, p.idle, p.live = nil, nil, 0
}

// statusOf is what the application is told of a failed call: the fault's status, else a failure of the call.
func statusOf(err error) uint32 {
	var fault *rpcerrors.RPCError
	if errors.As(err, &fault) {
		return fault.Code
	}
	var value *rpcerrors.Error
	if errors.As(err, &value) {
		switch v := value.Value.(type) {
		case uint32:
			return v
		case int32:
			return uint32(v)
		}
	}
	return callFailed
}
