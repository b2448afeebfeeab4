package vit

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// encodeSafetensors builds a safetensors file of F32 tensors (names sorted, packed in order).
func encodeSafetensors(ts map[string]*Tensor) []byte {
	names := make([]string, 0, len(ts))
	for n := range ts {
		names = append(names, n)
	}
	sort.Strings(names)
	hdr := map[string]any{"__metadata__": map[string]string{"format": "pt"}}
	var data bytes.Buffer
	for _, n := range names {
		t := ts[n]
		begin := data.Len()
		for _, v := range t.Data {
			binary.Write(&data, binary.LittleEndian, math.Float32bits(v))
		}
		hdr[n] = map[string]any{"dtype": "F32", "shape": t.Shape, "data_offsets": []int{begin, data.Len()}}
	}
	h, _ := json.Marshal(hdr)
	var out bytes.Buffer
	binary.Write(&out, binary.LittleEndian, uint64(len(h)))
	out.Write(h)
	out.Write(data.Bytes())
	return out.Bytes()
}

func rawFile(header string, data []byte) []byte {
	var out bytes.Buffer
	binary.Write(&out, binary.LittleEndian, uint64(len(header)))
	out.WriteString(header)
	out.Write(data)
	return out.Bytes()
}

func TestSafetensorsDTypes(t *testing.T) {
	f16 := []uint16{0x3C00, 0xC000, 0x0001, 0x7C00, 0x3555}
	bf16 := []uint16{0x3F80, 0xC040}
	var data bytes.Buffer
	for _, v := range f16 {
		binary.Write(&data, binary.LittleEndian, v)
	}
	for _, v := range bf16 {
		binary.Write(&data, binary.LittleEndian, v)
	}
	binary.Write(&data, binary.LittleEndian, math.Float32bits(0.25))
	hdr := `{"h":{"dtype":"F16","shape":[5],"data_offsets":[0,10]},"b":{"dtype":"BF16","shape":[2],"data_offsets":[10,14]},"f":{"dtype":"F32","shape":[1,1],"data_offsets":[14,18]}}`
	path := filepath.Join(t.TempDir(), "m.safetensors")
	if err := os.WriteFile(path, rawFile(hdr, data.Bytes()), 0o644); err != nil {
		t.Fatal(err)
	}
	ts, err := ReadSafetensors(path, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]float32{
		"h": {1, -2, float32(math.Ldexp(1, -24)), float32(math.Inf(1)), 0.33325195},
		"b": {1, -3},
		"f": {0.25},
	}
	for n, w := range want {
		if fmt.Sprint(ts[n].Data) != fmt.Sprint(w) {
			t.Errorf("%s: got %v, want %v", n, ts[n].Data, w)
		}
	}
}

func TestSafetensorsRefusesHostileFiles(t *testing.T) {
	four := make([]byte, 8)
	cases := map[string][]byte{
		"short":           []byte{1, 2},
		"huge header":     append(binary.LittleEndian.AppendUint64(nil, 1<<40), '{', '}'),
		"header past end": append(binary.LittleEndian.AppendUint64(nil, 100), '{', '}'),
		"bad json":        rawFile(`{"a":`, nil),
		"past data":       rawFile(`{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}`, four),
		"shape mismatch":  rawFile(`{"a":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}`, four),
		"overlap":         rawFile(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[1],"data_offsets":[4,8]}}`, four),
		"dtype":           rawFile(`{"a":{"dtype":"I64","shape":[1],"data_offsets":[0,8]}}`, four),
		"negative":        rawFile(`{"a":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}}`, four),
		"overflow":        rawFile(`{"a":{"dtype":"F32","shape":[65536,65536,65536],"data_offsets":[0,8]}}`, four),
	}
	dir := t.TempDir()
	for name, data := range cases {
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "_"))
		os.WriteFile(path, data, 0o644)
		if _, err := ReadSafetensors(path, 0); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// The size limit is checked before reading.
	ok := filepath.Join(dir, "ok")
	os.WriteFile(ok, rawFile(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`, four), 0o644)
	if _, err := ReadSafetensors(ok, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSafetensors(ok, 20); err == nil {
		t.Error("a file over the limit was read")
	}
}
