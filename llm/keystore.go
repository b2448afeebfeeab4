package llm

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/zalando/go-keyring"
)

// KeyringService is the service name the API key is filed under in the OS keyring (Secret
// Service on Linux, the Keychain on macOS, the Credential Manager on Windows).
const KeyringService = "pcg-workbench"

// keyringUser is the account name of the key inside KeyringService.
const keyringUser = "llm-api-key"

// keyringTimeout bounds one keyring call: a desktop without a running Secret Service can make
// the D-Bus call wait; the key is then kept in memory.
const keyringTimeout = 3 * time.Second

// KeyStore keeps the API key the GUI was given: in the OS keyring when one answers, otherwise
// in memory only, until the program exits. It never writes the key to any file of its own.
// Safe for concurrent use.
type KeyStore struct {
	mu     sync.Mutex
	key    string
	loaded bool
	// unavailable is why the keyring cannot be used ("" while it can).
	unavailable string
}

// NewKeyStore opens the store and reads the saved key, if any.
func NewKeyStore() *KeyStore {
	s := &KeyStore{}
	s.load()
	return s
}

func keyringCall(f func() error) error {
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(keyringTimeout):
		return errors.New("the keyring did not answer")
	}
}

func (s *KeyStore) load() {
	var v string
	err := keyringCall(func() error {
		var err error
		v, err = keyring.Get(KeyringService, keyringUser)
		return err
	})
	s.mu.Lock()
	defer s.mu.Unlock()
	s.loaded = true
	switch {
	case err == nil:
		s.key = v
	case errors.Is(err, keyring.ErrNotFound):
	default:
		s.unavailable = describeKeyringError(err)
	}
}

func describeKeyringError(err error) string {
	msg := err.Error()
	if len(msg) > 160 {
		msg = msg[:160] + "…"
	}
	return msg
}

// Key is the stored key ("" when none).
func (s *KeyStore) Key() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.key
}

// Persistent reports whether the key is kept in the OS keyring (true) or in memory only.
func (s *KeyStore) Persistent() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.unavailable == ""
}

// Status is one line for the GUI saying where the key is kept.
func (s *KeyStore) Status() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.unavailable != "" {
		return fmt.Sprintf("No OS keyring available (%s): the key is kept in memory until the workbench exits.", s.unavailable)
	}
	return "The key is kept in the OS keyring (service " + KeyringService + "), never in a file of the workbench."
}

// Set keeps key (an empty key deletes the saved one). When the keyring fails, the key is kept
// in memory and the error says why; later calls no longer try the keyring.
func (s *KeyStore) Set(key string) error {
	key = strings.TrimSpace(key)
	s.mu.Lock()
	if key == s.key && s.loaded {
		s.mu.Unlock()
		return nil
	}
	s.key = key
	persistent := s.unavailable == ""
	s.mu.Unlock()
	if !persistent {
		return nil
	}
	err := keyringCall(func() error {
		if key == "" {
			err := keyring.Delete(KeyringService, keyringUser)
			if errors.Is(err, keyring.ErrNotFound) {
				return nil
			}
			return err
		}
		return keyring.Set(KeyringService, keyringUser, key)
	})
	if err != nil {
		s.mu.Lock()
		s.unavailable = describeKeyringError(err)
		s.mu.Unlock()
		return fmt.Errorf("the OS keyring refused the key (%s); it is kept in memory until the workbench exits", describeKeyringError(err))
	}
	return nil
}
