package sandbox

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// FuzzReadFrame feeds arbitrary bytes to the worker protocol's reader (both directions use
// it): it must return a message or an error, never panic nor allocate past its limit. Seed
// corpus in testdata/fuzz/FuzzReadFrame.
func FuzzReadFrame(f *testing.F) {
	var ok bytes.Buffer
	_ = writeFrame(&ok, workerReply{Ints: []int{1, 2}, Text: "x"})
	f.Add(ok.Bytes())
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, '{'})
	f.Add([]byte{0, 0, 0, 2, '{', '}'})
	f.Fuzz(func(t *testing.T, b []byte) {
		var rep workerReply
		err := readFrame(bytes.NewReader(b), 1<<16, &rep)
		if err == nil && len(b) >= 4 && binary.BigEndian.Uint32(b) > 1<<16 {
			t.Fatalf("a frame of %d bytes passed the limit", binary.BigEndian.Uint32(b))
		}
		var req workerRequest
		_ = readFrame(bytes.NewReader(b), 1<<16, &req)
	})
}
