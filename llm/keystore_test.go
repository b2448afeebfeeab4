package llm

import (
	"errors"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"
)

func TestKeyStoreUsesTheKeyring(t *testing.T) {
	keyring.MockInit()
	s := NewKeyStore()
	if s.Key() != "" || !s.Persistent() {
		t.Fatalf("fresh store: key %q persistent %v", s.Key(), s.Persistent())
	}
	if err := s.Set(" sk-abc "); err != nil {
		t.Fatal(err)
	}
	if v, err := keyring.Get(KeyringService, keyringUser); err != nil || v != "sk-abc" {
		t.Fatalf("keyring holds %q, %v", v, err)
	}
	if got := NewKeyStore().Key(); got != "sk-abc" {
		t.Errorf("a new store reads %q", got)
	}
	if err := s.Set(""); err != nil {
		t.Fatal(err)
	}
	if _, err := keyring.Get(KeyringService, keyringUser); !errors.Is(err, keyring.ErrNotFound) {
		t.Errorf("the emptied key is still in the keyring: %v", err)
	}
}

func TestKeyStoreWithoutKeyringKeepsTheKeyInMemory(t *testing.T) {
	keyring.MockInitWithError(errors.New("no secret service"))
	defer keyring.MockInit()
	s := NewKeyStore()
	if s.Persistent() {
		t.Fatal("a failing keyring is reported persistent")
	}
	if err := s.Set("sk-mem"); err != nil {
		t.Fatal(err)
	}
	if s.Key() != "sk-mem" {
		t.Errorf("key %q", s.Key())
	}
	if st := s.Status(); !strings.Contains(st, "memory") || !strings.Contains(st, "no secret service") {
		t.Errorf("status %q", st)
	}
}
