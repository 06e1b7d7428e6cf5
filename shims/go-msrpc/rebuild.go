package main

// The application's message rebuilt from the packet sections of a Start*Receive (MS-MQRR 2.2.6, 3.2.4.3).
//
// The sections are laid out again as the packet they came from (the body bytes the server did not send are a
// gap between the first and the second section), then read header by header (MS-MQMQ 2.2.19, 2.2.20) as far as
// the MessagePropertiesHeader.  Reserved fields and the trailing headers are not looked at.  A packet that does
// not read is an error: the caller NACKs it (MS-MQRR 3.2.4.4.1).

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"unicode/utf16"

	remoteread "github.com/oiweiwei/go-msrpc/msrpc/mqrr/remoteread/v1"
)

const (
	signature           = 0x524F494C // MS-MQMQ 2.2.19.1 BaseHeader.Signature, "LIOR"
	sectionFull         = 0          // MS-MQRR 2.2.7 SectionType
	sectionBinaryFirst  = 1
	sectionBinarySecond = 2
)

type unreadable struct{ why string }

func (u unreadable) Error() string { return u.why }

func fail(format string, args ...any) error { return unreadable{fmt.Sprintf(format, args...)} }

type packet struct{ data []byte }

func (p packet) take(at, size int) ([]byte, error) {
	if at < 0 || size < 0 || at+size > len(p.data) {
		return nil, fail("the packet ends before byte %d", at+size)
	}
	return p.data[at : at+size], nil
}

func (p packet) u8(at int) (uint32, error) {
	b, err := p.take(at, 1)
	if err != nil {
		return 0, err
	}
	return uint32(b[0]), nil
}

func (p packet) u16(at int) (uint32, error) {
	b, err := p.take(at, 2)
	if err != nil {
		return 0, err
	}
	return uint32(binary.LittleEndian.Uint16(b)), nil
}

func (p packet) u32(at int) (uint32, error) {
	b, err := p.take(at, 4)
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b), nil
}

func align4(n int) int { return (n + 3) &^ 3 }

// layOut joins the sections into the packet; sent is how many of its bytes came before the gap.
func layOut(sections []*remoteread.SectionBuffer) (data []byte, sent int, err error) {
	if len(sections) == 0 || len(sections) > 2 {
		return nil, 0, fail("%d packet sections; a message comes in 1 or 2", len(sections))
	}
	first := sections[0]
	if first == nil || (first.SectionBufferType != sectionFull && first.SectionBufferType != sectionBinaryFirst) {
		return nil, 0, fail("a first section that is not a binary message")
	}
	if len(first.SectionBuffer) != int(first.SectionSize) || first.SectionSize > first.SectionSizeAlloc {
		return nil, 0, fail("the first section's sizes do not agree with its bytes")
	}
	if len(sections) == 1 {
		return first.SectionBuffer, len(first.SectionBuffer), nil
	}
	second := sections[1]
	if second == nil || second.SectionBufferType != sectionBinarySecond {
		return nil, 0, fail("a second section that is not the rest of a binary message")
	}
	gap := int(first.SectionSizeAlloc - first.SectionSize)
	data = append(append(append([]byte{}, first.SectionBuffer...), make([]byte, gap)...), second.SectionBuffer...)
	return data, len(first.SectionBuffer), nil
}

func skipQueue(code uint32, at int, p packet) (int, error) {
	switch code {
	case 0, 1:
		return at, nil
	case 2, 3, 4:
		return at + 4, nil
	case 5:
		return at + 16, nil
	case 6:
		return align4(at) + 20, nil
	}
	count, err := p.u16(at)
	if err != nil {
		return 0, err
	}
	return align4(at + 2 + int(count)), nil
}

// rebuild returns the message as docs/client-shim.md reports it.
func rebuild(sections []*remoteread.SectionBuffer, sequenceID uint64) (map[string]any, error) {
	data, sent, err := layOut(sections)
	if err != nil {
		return nil, err
	}
	p := packet{data}
	version, err := p.u8(0)
	if err != nil {
		return nil, err
	}
	flags, _ := p.u16(2)
	sig, err := p.u32(4)
	if err != nil || sig != signature || version != 0x10 {
		return nil, fail("no BaseHeader at the start of the packet")
	}
	priority := flags & 7
	source, err := p.take(16, 16)
	if err != nil {
		return nil, err
	}
	messageNumber, err := p.u32(56)
	if err != nil {
		return nil, err
	}
	userFlags, err := p.u32(60)
	if err != nil {
		return nil, err
	}
	at := 64
	for _, shift := range []uint{10, 13, 16} { // DQ, AQ, RQ (MS-MQMQ 2.2.19.2)
		if at, err = skipQueue((userFlags>>shift)&7, at, p); err != nil {
			return nil, err
		}
	}
	if userFlags>>22&1 == 1 { // CQ: ConnectorType
		at += 16
	}
	transactional := userFlags>>20&1 == 1
	if transactional { // TH (MS-MQMQ 2.2.20.5)
		thFlags, err := p.u32(at)
		if err != nil {
			return nil, err
		}
		if thFlags&1 == 1 {
			at += 36
		} else {
			at += 20
		}
	}
	if userFlags>>19&1 == 1 { // SH (MS-MQMQ 2.2.20.6)
		total := 16
		for _, off := range []int{2, 4, 6} {
			size, err := p.u16(at + off)
			if err != nil {
				return nil, err
			}
			total += align4(int(size))
		}
		for _, off := range []int{8, 12} {
			size, err := p.u32(at + off)
			if err != nil {
				return nil, err
			}
			total += align4(int(size))
		}
		at += total
	}
	if userFlags>>21&1 == 0 {
		return nil, fail("no MessagePropertiesHeader (MP is clear)")
	}
	labelLength, err := p.u8(at + 1)
	if err != nil {
		return nil, err
	}
	class, _ := p.u16(at + 2)
	correlation, err := p.take(at+4, 20)
	if err != nil {
		return nil, err
	}
	appSpecific, _ := p.u32(at + 28)
	bodySize, _ := p.u32(at + 32)
	extensionSize, err := p.u32(at + 52)
	if err != nil {
		return nil, err
	}
	labelBytes, err := p.take(at+56, 2*int(labelLength))
	if err != nil {
		return nil, err
	}
	units := make([]uint16, 0, labelLength)
	for i := 0; i+1 < len(labelBytes); i += 2 {
		unit := binary.LittleEndian.Uint16(labelBytes[i:])
		if unit == 0 {
			break
		}
		units = append(units, unit)
	}
	bodyStart := at + 56 + 2*int(labelLength) + int(extensionSize)
	bodyEnd := bodyStart + int(bodySize)
	if bodyEnd > sent {
		bodyEnd = sent
	}
	if bodyEnd < bodyStart {
		return nil, fail("the body starts inside the unsent part of the packet")
	}
	body, err := p.take(bodyStart, bodyEnd-bodyStart)
	if err != nil {
		return nil, err
	}
	lookupID := sequenceID & 0x00FFFFFFFFFFFFFF
	if transactional {
		lookupID |= uint64(7-priority) << 56 // MS-MQDMPR 3.1.7.1.9: the LookupIdentifier's top byte
	}
	id := make([]byte, 20)
	copy(id, source)
	binary.LittleEndian.PutUint32(id[16:], messageNumber)
	return map[string]any{
		"body": base64.StdEncoding.EncodeToString(body), "label": string(utf16.Decode(units)),
		"priority": priority, "class": class, "message_id": hex.EncodeToString(id),
		"correlation_id": hex.EncodeToString(correlation), "app_specific": appSpecific, "body_size": bodySize,
		"lookup_id": lookupID,
	}, nil
}
