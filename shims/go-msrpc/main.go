// mqspec-go-msrpc: the shim of go-msrpc's MS-MQRR client (github.com/oiweiwei/go-msrpc, msrpc/mqrr/remoteread/v1)
// for mqspec's client certification (docs/client-shim.md).
//
// Theory of operation
// -------------------
// The suite writes one JSON request a line on standard input; the shim asks go-msrpc and writes one JSON reply a
// line.  Three layers: pool.go (the association group and a connection per call in flight, each one go-msrpc
// RemoteRead client bound over dcerpc.Dial), client.go (MS-MQRR 3.2: the handles, cursors and waiting reads, and
// each operation as the calls of 3.2.4), rebuild.go (the message from the packet sections).  A read with "wait"
// runs on a goroutine of its own and is answered "pending" once its request is on the wire.
//
//	mqspec-go-msrpc [--ndr64] [--user NAME --password P | --hash NT] [--domain D] [--auth ntlm|spnego]
//	                [--level connect|integrity|privacy]
//
// Without --user it binds with no authentication (what `mqspec serve --judge` expects); with it, NTLM (auth type
// 10) or SPNEGO carrying NTLM (9) at the level asked (privacy by default).  --ndr64 proposes NDR64 alone.
// Two requests beyond the shim protocol serve the server oracle (tests/test_go_msrpc.py): a read with "raw": true
// also answers the packet sections as go-msrpc decoded them, and {"op": "server_port"} calls R_GetServerPort.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/oiweiwei/go-msrpc/dcerpc"
	"github.com/oiweiwei/go-msrpc/ssp"
	"github.com/oiweiwei/go-msrpc/ssp/credential"
	"github.com/oiweiwei/go-msrpc/ssp/gssapi"
)

const libraryVersion = "v1.2.5" // go.mod's pin of github.com/oiweiwei/go-msrpc

func contextWithTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, d)
}

type request struct {
	ID          json.RawMessage `json:"id"`
	Op          string          `json:"op"`
	Server      string          `json:"server"`
	Port        int             `json:"port"`
	Queue       string          `json:"queue"`
	FormatName  string          `json:"format_name"`
	Access      string          `json:"access"`
	Share       string          `json:"share"`
	Timeout     *uint32         `json:"timeout"`
	LookupID    *uint64         `json:"lookup_id"`
	Seek        string          `json:"seek"`
	Transaction *string         `json:"transaction"`
	MaxBody     *uint32         `json:"max_body"`
	MaxCompound *uint32         `json:"max_compound"`
	Wait        *string         `json:"wait"`
	Cursor      string          `json:"cursor"`
	Next        bool            `json:"next"`
	Request     string          `json:"request"`
	To          string          `json:"to"`
	Raw         bool            `json:"raw"`
}

type shim struct {
	out     *bufio.Writer
	writeMu sync.Mutex
	client  *client
	ctx     context.Context
	binding []dcerpc.Option
	ndr64   bool
	workers sync.WaitGroup
}

func (s *shim) write(id json.RawMessage, reply map[string]any) {
	reply["id"] = id
	line, err := json.Marshal(reply)
	if err != nil {
		line, _ = json.Marshal(map[string]any{"id": id, "error": err.Error()})
	}
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.out.Write(append(line, '\n'))
	s.out.Flush()
}

func (s *shim) run(r request, sent func()) (reply map[string]any) {
	c := s.client
	defer func() {
		if p := recover(); p != nil {
			reply = map[string]any{"error": fmt.Sprintf("%s: %v", r.Op, p)}
		}
	}()
	var err error
	transaction := ""
	if r.Transaction != nil {
		transaction = *r.Transaction
	}
	timeout := uint32(0)
	if r.Timeout != nil {
		timeout = *r.Timeout
	}
	wait := ""
	if r.Wait != nil {
		wait = *r.Wait
	}
	switch r.Op {
	case "open":
		reply, err = c.open(r.Queue, r.FormatName, r.Access, r.Share)
	case "close":
		reply, err = c.closeQueue(r.Queue)
	case "peek", "receive", "cursor_peek", "cursor_receive":
		queue := r.Queue
		if strings.HasPrefix(r.Op, "cursor_") {
			if queue, err = c.cursorOwner(r.Cursor); err != nil {
				break
			}
		}
		reply, err = c.read(readArgs{queue: queue, cursor: r.Cursor, seek: r.Seek, transaction: transaction,
			wait: wait, peek: strings.HasSuffix(r.Op, "peek"), next: r.Next, timeout: timeout, lookupID: r.LookupID,
			maxBody: r.MaxBody, maxCompound: r.MaxCompound, raw: r.Raw}, sent)
	case "cursor":
		reply, err = c.cursor(r.Queue, r.Cursor)
	case "close_cursor":
		reply, err = c.closeCursor(r.Cursor)
	case "cancel":
		reply, err = c.cancel(r.Request)
	case "purge":
		reply, err = c.purge(r.Queue)
	case "begin":
		reply, err = c.begin(transaction)
	case "reject":
		if r.LookupID == nil {
			return map[string]any{"error": "reject: no lookup_id"}
		}
		reply, err = c.reject(r.Queue, *r.LookupID)
	case "move":
		if r.LookupID == nil {
			return map[string]any{"error": "move: no lookup_id"}
		}
		reply, err = c.move(r.Queue, *r.LookupID, r.To, transaction)
	case "server_port":
		reply, err = c.serverPort()
	default:
		return map[string]any{"unimplemented": r.Op + ": no such operation in this client"}
	}
	if err != nil {
		if refused, ok := err.(refusal); ok {
			return map[string]any{"status": refused.status}
		}
		return map[string]any{"error": fmt.Sprintf("%s: %v", r.Op, err)}
	}
	return reply
}

func (s *shim) serve(lines *bufio.Scanner) {
	for lines.Scan() {
		text := strings.TrimSpace(lines.Text())
		if text == "" {
			continue
		}
		var r request
		if err := json.Unmarshal([]byte(text), &r); err != nil {
			s.write(nil, map[string]any{"error": "a request that is not JSON: " + err.Error()})
			continue
		}
		switch {
		case r.Op == "hello":
			s.client = newClient(newPool(s.ctx, r.Server, r.Port, s.binding))
			name := "go-msrpc " + libraryVersion
			if s.ndr64 {
				name += " (NDR64)"
			}
			s.write(r.ID, map[string]any{"name": name, "version": version, "workgroup": true,
				"routing_server": false})
		case s.client == nil:
			s.write(r.ID, map[string]any{"error": r.Op + " before hello"})
		case r.Op == "bye":
			reply := s.client.bye()
			done := make(chan struct{})
			go func() { s.workers.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
			}
			s.write(r.ID, reply)
			return
		case r.Wait != nil:
			announced := make(chan struct{})
			var once sync.Once
			announce := func() {
				once.Do(func() {
					s.write(r.ID, map[string]any{"pending": true})
					close(announced)
				})
			}
			s.workers.Add(1)
			go func(r request) {
				defer s.workers.Done()
				reply := s.run(r, announce)
				announce()
				s.write(r.ID, reply)
			}(r)
			<-announced // the next request may be its cancel: the read goes out first
		default:
			s.write(r.ID, s.run(r, nil))
		}
	}
}

func main() {
	ndr64 := flag.Bool("ndr64", false, "propose NDR64 alone as the transfer syntax")
	user := flag.String("user", os.Getenv("MQSPEC_USER"), "NTLM user name (none: no authentication)")
	password := flag.String("password", os.Getenv("MQSPEC_PASSWORD"), "the user's password")
	hash := flag.String("hash", "", "the user's NT hash, in hex, instead of a password")
	domain := flag.String("domain", os.Getenv("MQSPEC_DOMAIN"), "the user's domain")
	auth := flag.String("auth", "ntlm", "ntlm (auth type 10) or spnego (9, carrying NTLM)")
	level := flag.String("level", "privacy", "connect, integrity or privacy")
	flag.Parse()

	ctx := gssapi.NewSecurityContext(context.Background())
	var binding []dcerpc.Option
	if *ndr64 {
		binding = append(binding, dcerpc.WithNDR64())
	}
	if *user == "" {
		binding = append(binding, dcerpc.WithInsecure())
	} else {
		var opts []credential.Option
		if *domain != "" {
			opts = append(opts, credential.Domain(*domain))
		}
		var creds any = credential.NewFromPassword(*user, *password, opts...)
		if *hash != "" {
			creds = credential.NewFromNTHash(*user, *hash, opts...)
		}
		switch *auth {
		case "ntlm":
			binding = append(binding, dcerpc.WithMechanism(ssp.NTLM))
		case "spnego":
			binding = append(binding, dcerpc.WithMechanism(ssp.SPNEGO), dcerpc.WithMechanism(ssp.NTLM))
		default:
			fmt.Fprintf(os.Stderr, "mqspec-go-msrpc: --auth %q: give ntlm or spnego\n", *auth)
			os.Exit(2)
		}
		binding = append(binding, dcerpc.WithCredentials(creds))
		switch *level {
		case "connect":
			binding = append(binding, dcerpc.WithConnect())
		case "integrity":
			binding = append(binding, dcerpc.WithSign())
		case "privacy":
			binding = append(binding, dcerpc.WithSeal())
		default:
			fmt.Fprintf(os.Stderr, "mqspec-go-msrpc: --level %q: give connect, integrity or privacy\n", *level)
			os.Exit(2)
		}
	}
	s := &shim{out: bufio.NewWriter(os.Stdout), ctx: ctx, binding: binding, ndr64: *ndr64}
	lines := bufio.NewScanner(os.Stdin)
	lines.Buffer(make([]byte, 1<<20), 1<<26)
	s.serve(lines)
}
