package main

// The client (MS-MQRR 3.2): the abstract data model of 3.2.1 (a handle per open queue, its cursors, the reads
// waiting) and each application operation as the calls 3.2.4 gives it, every call made with go-msrpc's
// generated RemoteRead client:
//
//	open      R_OpenQueue                                                  3.2.4.1
//	peek      R_StartReceive with a peek action                            3.2.4.3, 3.2.4.9
//	receive   [R_QMEnlistRemoteTransaction] R_Start[Transactional]Receive, then R_End[Transactional]Receive
//	          with RR_ACK, or RR_NACK when the packet does not rebuild    3.2.4.4, 3.2.4.10
//	reject    R_SetUserAcknowledgementClass                                3.2.4.5
//	move      [enlist] R_OpenQueueForMove, R_MoveMessage, R_CloseQueue     3.2.4.6
//	purge     R_PurgeQueue                                                 3.2.4.7
//	cursor    R_CreateCursor / R_CloseCursor                               3.2.4.8, 3.2.4.12
//	cancel    R_CancelReceive                                              3.2.4.11
//	close     R_CancelReceive for each waiting read, R_CloseCursor for each cursor, R_CloseQueue   3.2.4.13
//
// What a queue's access does not allow is refused before any call (decision D-83).  The outputs of a call that
// failed are never used (MS-MQRR 3.1.4).

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/oiweiwei/go-msrpc/msrpc/dtyp"
	"github.com/oiweiwei/go-msrpc/msrpc/mqmq"
	remoteread "github.com/oiweiwei/go-msrpc/msrpc/mqrr/remoteread/v1"
)

const (
	mqOK                    = 0
	mqError                 = 0xC00E0001
	mqErrorInvalidParameter = 0xC00E0006
	mqErrorInvalidHandle    = 0xC00E0007
	mqErrorIllegalFormat    = 0xC00E001E
	mqErrorAccessDenied     = 0xC00E0025
	mqErrorTransactionUsage = 0xC00E0050
	receiveAccess           = 0x01
	moveAccess              = 0x04
	peekAccess              = 0x20
	rrNack, rrAck           = 1, 2
	nackReceiveRejected     = 0xC004   // MQMSG_CLASS_NACK_RECEIVE_REJECTED (MS-MQMQ 2.2.18.1.6)
	largest                 = 0x400000 // MS-MQMQ 2.2.19.1: no packet is larger, so no body either
	infinite                = 0xFFFFFFFF
)

var (
	version       = [3]int{1, 2, 5} // Major, Minor, BuildNumber put in R_OpenQueue: go-msrpc's own version
	accessCodes   = map[string]uint32{"receive": receiveAccess, "peek": peekAccess}
	shareCodes    = map[string]uint32{"deny_none": 0, "deny_receive": 1}
	lookupPeek    = map[string]uint32{"current": 0x40000010, "next": 0x40000011, "prev": 0x40000012}
	lookupReceive = map[string]uint32{"current": 0x40000020, "next": 0x40000021, "prev": 0x40000022}
)

// refusal ends an operation with a status and no more calls.
type refusal struct{ status uint32 }

func (r refusal) Error() string { return fmt.Sprintf("0x%08X", r.status) }

type openQueue struct {
	handle     *remoteread.QueueSerialize
	formatName string
	access     uint32
	cursors    map[string]uint32
	requestID  uint32
}

type waiting struct {
	queue     string
	requestID uint32
	cursor    string
}

type client struct {
	rpc          *pool
	clientID     *dtyp.GUID
	mu           sync.Mutex
	queues       map[string]*openQueue
	transactions map[string][]byte
	enlisted     map[string]bool
	waits        map[string]waiting
}

func newClient(rpc *pool) *client {
	return &client{rpc: rpc, clientID: guid(random(16)), queues: map[string]*openQueue{},
		transactions: map[string][]byte{}, enlisted: map[string]bool{}, waits: map[string]waiting{}}
}

func random(n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return b
}

// guid reads 16 octets as a GUID laid out little-endian (as on the wire).
func guid(b []byte) *dtyp.GUID {
	return &dtyp.GUID{Data1: binary.LittleEndian.Uint32(b), Data2: binary.LittleEndian.Uint16(b[4:]),
		Data3: binary.LittleEndian.Uint16(b[6:]), Data4: append([]byte{}, b[8:16]...)}
}

func parseGUID(text string) (*dtyp.GUID, error) {
	hexits := strings.ReplaceAll(strings.Trim(text, "{}"), "-", "")
	b, err := hex.DecodeString(hexits)
	if err != nil || len(b) != 16 {
		return nil, fmt.Errorf("not a GUID")
	}
	return &dtyp.GUID{Data1: binary.BigEndian.Uint32(b), Data2: binary.BigEndian.Uint16(b[4:]),
		Data3: binary.BigEndian.Uint16(b[6:]), Data4: b[8:16]}, nil
}

var systemSuffixes = map[string]uint8{"JOURNAL": 0x81, "DEADLETTER": 0x82, "DEADXACT": 0x83}

// queueFormat turns a one-element format name into QUEUE_FORMAT (MS-MQMQ 2.1, 2.2.7).
func queueFormat(formatName string) (*mqmq.QueueFormat, error) {
	bad := refusal{mqErrorIllegalFormat}
	kind, body, found := strings.Cut(formatName, "=")
	kind = strings.ToUpper(strings.TrimSpace(kind))
	if !found || body == "" {
		return nil, bad
	}
	name, suffix, hasSuffix := body, "", false
	if i := strings.LastIndex(body, ";"); i >= 0 {
		name, suffix, hasSuffix = body[:i], body[i+1:], true
	}
	code := uint8(0)
	if hasSuffix {
		code = systemSuffixes[strings.ToUpper(suffix)]
	}
	format := func(qft uint8, flags uint8, value *mqmq.QueueFormat_QueueFormat) *mqmq.QueueFormat {
		return &mqmq.QueueFormat{QueueFormatType: qft, SuffixAndFlags: flags, QueueFormat: value}
	}
	switch kind {
	case "DIRECT":
		if hasSuffix && code == 0 {
			return format(8, 0x05, &mqmq.QueueFormat_QueueFormat{Value: &mqmq.QueueFormat_DirectSubqueueID{DirectSubqueueID: body}}), nil
		}
		if !hasSuffix {
			name = body
		} else if (code == 0x82 || code == 0x83) && strings.HasSuffix(strings.ToUpper(name), "\\SYSTEM$") {
			name = name[:len(name)-len("\\SYSTEM$")] // a machine queue names its computer only
		}
		return format(3, code, &mqmq.QueueFormat_QueueFormat{Value: &mqmq.QueueFormat_DirectID{DirectID: name}}), nil
	}
	if hasSuffix && code == 0 {
		return nil, bad
	}
	switch kind {
	case "PUBLIC", "MACHINE":
		id, err := parseGUID(name)
		if err != nil {
			return nil, bad
		}
		if kind == "PUBLIC" {
			return format(1, code, &mqmq.QueueFormat_QueueFormat{Value: &mqmq.QueueFormat_PublicID{PublicID: id}}), nil
		}
		return format(4, code, &mqmq.QueueFormat_QueueFormat{Value: &mqmq.QueueFormat_MachineID{MachineID: id}}), nil
	case "PRIVATE":
		lineage, number, ok := strings.Cut(name, "\\")
		id, err := parseGUID(lineage)
		n, nerr := strconv.ParseUint(number, 16, 64)
		if !ok || err != nil || nerr != nil {
			return nil, bad
		}
		return format(2, code, &mqmq.QueueFormat_QueueFormat{Value: &mqmq.QueueFormat_PrivateID{PrivateID: &mqmq.ObjectID{Lineage: id,
			Uniquifier: uint32(n)}}}), nil
	}
	return nil, bad
}

func noSerialize(h *remoteread.QueueSerialize) *remoteread.QueueNoSerialize {
	return (*remoteread.QueueNoSerialize)(h)
}

func (c *client) queue(name string) (*openQueue, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	opened, ok := c.queues[name]
	if !ok {
		return nil, refusal{mqErrorInvalidHandle}
	}
	return opened, nil
}

func receiving(opened *openQueue) error {
	if opened.access != receiveAccess { // D-83; MS-MQRR 3.1.4.6:01, 3.1.4.7:02, 3.1.4.10:02, 3.1.4.14:02
		return refusal{mqErrorAccessDenied}
	}
	return nil
}

func (c *client) openRequest(formatName string, access, share uint32) (*remoteread.OpenQueueRequest, error) {
	format, err := queueFormat(formatName)
	if err != nil {
		return nil, err
	}
	return &remoteread.OpenQueueRequest{QueueFormat: format, Access: access, ShareMode: share, ClientID: c.clientID,
		NonRoutingServer: 1, Major: uint8(version[0]), Minor: uint8(version[1]), BuildNumber: uint16(version[2]),
		Workgroup: 1}, nil // MS-MQRR 3.1.4.2: not a routing server, in no domain
}

// simple runs a call whose only output is its HRESULT: a fault or a broken connection is a status too.
func simple[T any](c *client, fn func(cli remoteread.RemoteReadClient) (*T, error), ret func(*T) int32) uint32 {
	var status uint32
	err := c.rpc.call(nil, func(cli remoteread.RemoteReadClient) (bool, error) {
		out, err := fn(cli)
		if out == nil {
			return false, err
		}
		status = uint32(ret(out))
		return true, nil
	})
	if err != nil {
		return statusOf(err)
	}
	return status
}

func (c *client) open(queue, formatName, access, share string) (map[string]any, error) {
	code, ok := accessCodes[access]
	shareCode, ok2 := shareCodes[share]
	if !ok || !ok2 {
		return nil, fmt.Errorf("access %q or share %q", access, share)
	}
	request, err := c.openRequest(formatName, code, shareCode)
	if err != nil {
		return nil, err
	}
	var handle *remoteread.QueueSerialize
	err = c.rpc.call(nil, func(cli remoteread.RemoteReadClient) (bool, error) {
		out, err := cli.OpenQueue(c.rpc.ctx, request)
		if out == nil {
			return false, err
		}
		handle = out.Context
		return true, err
	})
	if err != nil {
		return map[string]any{"status": statusOf(err)}, nil // a void method: a failure came as a fault
	}
	c.mu.Lock()
	c.queues[queue] = &openQueue{handle: handle, formatName: formatName, access: code, cursors: map[string]uint32{}}
	c.mu.Unlock()
	return map[string]any{"status": mqOK}, nil
}

func (c *client) closeQueue(queue string) (map[string]any, error) {
	opened, err := c.queue(queue)
	if err != nil {
		return nil, err
	}
	c.cancelWaiting(queue, "")
	for cursor := range opened.cursors {
		c.closeCursor(cursor)
	}
	status := simple(c, func(cli remoteread.RemoteReadClient) (*remoteread.CloseQueueResponse, error) {
		return cli.CloseQueue(c.rpc.ctx, &remoteread.CloseQueueRequest{Context: opened.handle})
	}, func(out *remoteread.CloseQueueResponse) int32 { return out.Return })
	c.mu.Lock()
	delete(c.queues, queue) // MS-MQRR 3.2.4.13: forgotten whatever R_CloseQueue said
	c.mu.Unlock()
	return map[string]any{"status": status}, nil
}

func (c *client) cursor(queue, cursor string) (map[string]any, error) {
	opened, err := c.queue(queue)
	if err != nil {
		return nil, err
	}
	var status, hCursor uint32
	err = c.rpc.call(nil, func(cli remoteread.RemoteReadClient) (bool, error) {
		out, err := cli.CreateCursor(c.rpc.ctx, &remoteread.CreateCursorRequest{Context: noSerialize(opened.handle)})
		if out == nil {
			return false, err
		}
		status, hCursor = uint32(out.Return), out.Cursor
		return true, nil
	})
	if err != nil {
		return map[string]any{"status": statusOf(err)}, nil
	}
	if status == mqOK { // MS-MQRR 3.1.4.4: a failed call's hCursor is not a cursor
		c.mu.Lock()
		opened.cursors[cursor] = hCursor
		c.mu.Unlock()
	}
	return map[string]any{"status": status}, nil
}

func (c *client) cursorOwner(cursor string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for name, opened := range c.queues {
		if _, ok := opened.cursors[cursor]; ok {
			return name, nil
		}
	}
	return "", refusal{mqErrorInvalidHandle}
}

func (c *client) closeCursor(cursor string) (map[string]any, error) {
	queue, err := c.cursorOwner(cursor)
	if err != nil {
		return nil, err
	}
	opened, _ := c.queue(queue)
	c.cancelWaiting(queue, cursor) // MS-MQRR 3.2.4.12 SHOULD
	c.mu.Lock()
	hCursor := opened.cursors[cursor]
	delete(opened.cursors, cursor)
	c.mu.Unlock()
	status := simple(c, func(cli remoteread.RemoteReadClient) (*remoteread.CloseCursorResponse, error) {
		return cli.CloseCursor(c.rpc.ctx, &remoteread.CloseCursorRequest{Context: noSerialize(opened.handle),
			Cursor: hCursor})
	}, func(out *remoteread.CloseCursorResponse) int32 { return out.Return })
	return map[string]any{"status": status}, nil
}

func (c *client) cancelRequest(opened *openQueue, requestID uint32) uint32 {
	return simple(c, func(cli remoteread.RemoteReadClient) (*remoteread.CancelReceiveResponse, error) {
		return cli.CancelReceive(c.rpc.ctx, &remoteread.CancelReceiveRequest{Context: noSerialize(opened.handle),
			RequestID: requestID})
	}, func(out *remoteread.CancelReceiveResponse) int32 { return out.Return })
}

func (c *client) cancelWaiting(queue, cursor string) {
	c.mu.Lock()
	var ids []uint32
	for _, w := range c.waits {
		if w.queue == queue && (cursor == "" || w.cursor == cursor) {
			ids = append(ids, w.requestID)
		}
	}
	opened := c.queues[queue]
	c.mu.Unlock()
	for _, id := range ids {
		c.cancelRequest(opened, id)
	}
}

func (c *client) cancel(request string) (map[string]any, error) {
	c.mu.Lock()
	w, ok := c.waits[request]
	c.mu.Unlock()
	if !ok {
		return nil, refusal{mqErrorInvalidParameter}
	}
	opened, err := c.queue(w.queue)
	if err != nil {
		return nil, err
	}
	return map[string]any{"status": c.cancelRequest(opened, w.requestID)}, nil
}

func (c *client) enlist(transaction, formatName string) ([]byte, error) {
	c.mu.Lock()
	uow, ok := c.transactions[transaction]
	done := c.enlisted[transaction]
	c.mu.Unlock()
	if !ok {
		return nil, refusal{mqErrorTransactionUsage}
	}
	if done { // MS-MQRR 3.2.4.2: once, before its first use
		return uow, nil
	}
	format, err := queueFormat(formatName)
	if err != nil {
		return nil, err
	}
	token := append(append([]byte("MQRR"), uow...), random(12)...) // stands for the MS-DTCO propagation token
	status := simple(c, func(cli remoteread.RemoteReadClient) (*remoteread.EnlistRemoteTransactionResponse, error) {
		return cli.EnlistRemoteTransaction(c.rpc.ctx, &remoteread.EnlistRemoteTransactionRequest{
			TransactionID: &mqmq.TransactionUOW{Data: uow}, PropagationTokenLength: uint32(len(token)),
			PropagationToken: token, QueueFormat: format})
	}, func(out *remoteread.EnlistRemoteTransactionResponse) int32 { return out.Return })
	if status != mqOK {
		return nil, refusal{status}
	}
	c.mu.Lock()
	c.enlisted[transaction] = true
	c.mu.Unlock()
	return uow, nil
}

type readArgs struct {
	queue, cursor, seek, transaction, wait string
	peek, next                             bool
	timeout                                uint32
	lookupID                               *uint64
	maxBody, maxCompound                   *uint32
	raw                                    bool
}

func (c *client) read(a readArgs, sent func()) (map[string]any, error) {
	opened, err := c.queue(a.queue)
	if err != nil {
		return nil, err
	}
	if !a.peek {
		if err := receiving(opened); err != nil {
			return nil, err
		}
	}
	var hCursor uint32
	if a.cursor != "" {
		c.mu.Lock()
		hCursor = opened.cursors[a.cursor]
		c.mu.Unlock()
	}
	var action uint32
	timeout, lookupID := a.timeout, uint64(0)
	switch {
	case a.lookupID != nil: // MS-MQRR 3.1.4.7: a lookup waits for nothing
		seek := a.seek
		if seek == "" {
			seek = "current"
		}
		table := lookupReceive
		if a.peek {
			table = lookupPeek
		}
		action, timeout, lookupID = table[seek], 0, *a.lookupID
	case a.peek && a.next:
		action = 0x80000001
	case a.peek:
		action = 0x80000000
	}
	var uow []byte
	if !a.peek && a.transaction != "" {
		if uow, err = c.enlist(a.transaction, opened.formatName); err != nil { // MS-MQRR 3.2.4.4.2 step 1
			return nil, err
		}
	}
	c.mu.Lock()
	opened.requestID++
	requestID := opened.requestID // MS-MQRR 3.1.4.7: never reused on the handle while outstanding
	if a.wait != "" {
		c.waits[a.wait] = waiting{a.queue, requestID, a.cursor}
	}
	c.mu.Unlock()
	maxBody, maxCompound := uint32(largest), uint32(largest)
	if a.maxBody != nil {
		maxBody = *a.maxBody
	}
	if a.maxCompound != nil {
		maxCompound = *a.maxCompound
	}
	ctx, cancel := c.rpc.ctx, func() {}
	if timeout != infinite {
		ctx, cancel = contextWithTimeout(ctx, time.Duration(timeout)*time.Millisecond+60*time.Second)
	}
	var (
		status     uint32
		sequenceID uint64
		sections   []*remoteread.SectionBuffer
	)
	err = c.rpc.call(sent, func(cli remoteread.RemoteReadClient) (bool, error) {
		context := noSerialize(opened.handle)
		if uow == nil {
			out, err := cli.StartReceive(ctx, &remoteread.StartReceiveRequest{Context: context, LookupID: lookupID,
				Cursor: hCursor, Action: action, Timeout: timeout, RequestID: requestID, MaxBodySize: maxBody,
				MaxCompoundMessageSize: maxCompound})
			if out == nil {
				return false, err
			}
			status, sequenceID, sections = uint32(out.Return), out.SequenceID, out.PacketSections
			return true, nil
		}
		out, err := cli.StartTransactionalReceive(ctx, &remoteread.StartTransactionalReceiveRequest{
			Context: context, LookupID: lookupID, Cursor: hCursor, Action: action, Timeout: timeout,
			RequestID: requestID, MaxBodySize: maxBody, MaxCompoundMessageSize: maxCompound,
			TransactionID: &mqmq.TransactionUOW{Data: uow}})
		if out == nil {
			return false, err
		}
		status, sequenceID, sections = uint32(out.Return), out.SequenceID, out.PacketSections
		return true, nil
	})
	cancel()
	if a.wait != "" {
		c.mu.Lock()
		delete(c.waits, a.wait)
		c.mu.Unlock()
	}
	if err != nil {
		return map[string]any{"status": statusOf(err)}, nil
	}
	if status != mqOK {
		return map[string]any{"status": status}, nil // MS-MQRR 3.1.4.7: nothing of a failed call is used
	}
	message, rebuildErr := rebuild(sections, sequenceID)
	ack := uint32(rrAck)
	if rebuildErr != nil {
		ack = rrNack // MS-MQRR 3.2.4.4.1 step 2
	}
	reply := map[string]any{"status": uint32(mqOK), "message": message}
	if a.raw {
		reply["sections"] = rawSections(sections)
		reply["sequence_id"] = sequenceID
	}
	if a.peek {
		if message == nil {
			return map[string]any{"status": mqError}, nil
		}
		return reply, nil
	}
	var ended uint32
	if uow == nil {
		ended = simple(c, func(cli remoteread.RemoteReadClient) (*remoteread.EndReceiveResponse, error) {
			return cli.EndReceive(c.rpc.ctx, &remoteread.EndReceiveRequest{Context: noSerialize(opened.handle),
				Ack: ack, RequestID: requestID})
		}, func(out *remoteread.EndReceiveResponse) int32 { return out.Return })
	} else {
		ended = simple(c, func(cli remoteread.RemoteReadClient) (*remoteread.EndTransactionalReceiveResponse, error) {
			return cli.EndTransactionalReceive(c.rpc.ctx, &remoteread.EndTransactionalReceiveRequest{
				Context: noSerialize(opened.handle), Ack: ack, RequestID: requestID})
		}, func(out *remoteread.EndTransactionalReceiveResponse) int32 { return out.Return })
	}
	if message == nil {
		return map[string]any{"status": mqError}, nil
	}
	if ended != mqOK {
		return map[string]any{"status": ended}, nil // MS-MQRR 3.2.4.4.2 step 5
	}
	return reply, nil
}

func rawSections(sections []*remoteread.SectionBuffer) []map[string]any {
	found := []map[string]any{}
	for _, s := range sections {
		if s == nil {
			continue
		}
		found = append(found, map[string]any{"type": uint16(s.SectionBufferType), "size_alloc": s.SectionSizeAlloc,
			"size": s.SectionSize, "data": hex.EncodeToString(s.SectionBuffer)})
	}
	return found
}

func (c *client) purge(queue string) (map[string]any, error) {
	opened, err := c.queue(queue)
	if err != nil {
		return nil, err
	}
	if err := receiving(opened); err != nil {
		return nil, err
	}
	status := simple(c, func(cli remoteread.RemoteReadClient) (*remoteread.PurgeQueueResponse, error) {
		return cli.PurgeQueue(c.rpc.ctx, &remoteread.PurgeQueueRequest{Context: noSerialize(opened.handle)})
	}, func(out *remoteread.PurgeQueueResponse) int32 { return out.Return })
	return map[string]any{"status": status}, nil
}

func (c *client) begin(transaction string) (map[string]any, error) {
	uow := random(16) // MS-MQRR 2.2.8: a unique random XACTUOW each time
	c.mu.Lock()
	c.transactions[transaction] = uow
	delete(c.enlisted, transaction)
	c.mu.Unlock()
	return map[string]any{"status": mqOK, "transaction_id": hex.EncodeToString(uow)}, nil
}

func (c *client) reject(queue string, lookupID uint64) (map[string]any, error) {
	opened, err := c.queue(queue)
	if err != nil {
		return nil, err
	}
	if err := receiving(opened); err != nil {
		return nil, err
	}
	status := simple(c, func(cli remoteread.RemoteReadClient) (*remoteread.SetUserAcknowledgementClassResponse, error) {
		return cli.SetUserAcknowledgementClass(c.rpc.ctx, &remoteread.SetUserAcknowledgementClassRequest{
			Context: noSerialize(opened.handle), LookupID: lookupID, Class: nackReceiveRejected})
	}, func(out *remoteread.SetUserAcknowledgementClassResponse) int32 { return out.Return })
	return map[string]any{"status": status}, nil
}

func (c *client) move(queue string, lookupID uint64, to, transaction string) (map[string]any, error) {
	opened, err := c.queue(queue)
	if err != nil {
		return nil, err
	}
	if err := receiving(opened); err != nil {
		return nil, err
	}
	uow := make([]byte, 16) // MS-MQRR 3.1.4.10: zeros, or an enlisted XACTUOW
	if transaction != "" {
		if uow, err = c.enlist(transaction, to); err != nil {
			return nil, err
		}
	}
	request, err := c.openRequest(to, moveAccess, 0)
	if err != nil {
		return nil, err
	}
	var (
		moveContext uint64
		handle      *remoteread.QueueSerialize
	)
	err = c.rpc.call(nil, func(cli remoteread.RemoteReadClient) (bool, error) {
		out, err := cli.OpenQueueForMove(c.rpc.ctx, &remoteread.OpenQueueForMoveRequest{
			QueueFormat: request.QueueFormat, Access: request.Access, ShareMode: request.ShareMode,
			ClientID: request.ClientID, NonRoutingServer: request.NonRoutingServer, Major: request.Major,
			Minor: request.Minor, BuildNumber: request.BuildNumber, Workgroup: request.Workgroup})
		if out == nil {
			return false, err
		}
		moveContext, handle = out.MoveContext, out.Context
		return true, err
	})
	if err != nil {
		return map[string]any{"status": statusOf(err)}, nil // MS-MQRR 3.1.4.11: no move context to use
	}
	status := simple(c, func(cli remoteread.RemoteReadClient) (*remoteread.MoveMessageResponse, error) {
		return cli.MoveMessage(c.rpc.ctx, &remoteread.MoveMessageRequest{ContextFrom: noSerialize(opened.handle),
			ContextTo: moveContext, LookupID: lookupID, TransactionID: &mqmq.TransactionUOW{Data: uow}})
	}, func(out *remoteread.MoveMessageResponse) int32 { return out.Return })
	simple(c, func(cli remoteread.RemoteReadClient) (*remoteread.CloseQueueResponse, error) {
		return cli.CloseQueue(c.rpc.ctx, &remoteread.CloseQueueRequest{Context: handle})
	}, func(out *remoteread.CloseQueueResponse) int32 { return out.Return })
	return map[string]any{"status": status}, nil
}

// serverPort is R_GetServerPort as go-msrpc reports it: not in the shim protocol, for the server oracle.
func (c *client) serverPort() (map[string]any, error) {
	var port uint32
	var libraryErr error
	err := c.rpc.call(nil, func(cli remoteread.RemoteReadClient) (bool, error) {
		out, err := cli.GetServerPort(c.rpc.ctx, &remoteread.GetServerPortRequest{})
		if out == nil {
			return false, err
		}
		port, libraryErr = out.Return, err
		return true, nil
	})
	if err != nil {
		return map[string]any{"status": statusOf(err)}, nil
	}
	reply := map[string]any{"status": uint32(mqOK), "port": port}
	if libraryErr != nil { // go-msrpc takes the DWORD it returns for a status: a port is an error to it
		reply["status"] = statusOf(libraryErr)
		reply["library_error"] = libraryErr.Error()
	}
	return reply, nil
}

func (c *client) bye() map[string]any {
	c.mu.Lock()
	names := make([]string, 0, len(c.queues))
	for name := range c.queues {
		names = append(names, name)
	}
	c.mu.Unlock()
	for _, name := range names {
		c.closeQueue(name)
	}
	c.rpc.close()
	return map[string]any{"status": mqOK}
}
