package security

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/mneme-ai/mneme/internal/app/apptest"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/natsauth"
)

// testPKI is a CA and a server certificate for 127.0.0.1 and localhost, written as PEM files.
type testPKI struct {
	caFile, certFile, keyFile string
	pool                      *x509.CertPool
}

func newPKI(t *testing.T) testPKI {
	t.Helper()
	dir := t.TempDir()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "mneme test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "mneme"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		DNSNames: []string{"localhost"}, IPAddresses: []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	p := testPKI{caFile: filepath.Join(dir, "ca.pem"), certFile: filepath.Join(dir, "cert.pem"), keyFile: filepath.Join(dir, "key.pem"), pool: x509.NewCertPool()}
	p.pool.AddCert(ca)
	for path, block := range map[string]*pem.Block{
		p.caFile: {Type: "CERTIFICATE", Bytes: caDER}, p.certFile: {Type: "CERTIFICATE", Bytes: der}, p.keyFile: {Type: "EC PRIVATE KEY", Bytes: keyDER},
	} {
		if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// TestTLS: with MNEME_NATS_SERVER_TLS_* the embedded NATS server accepts only TLS clients (Mneme's own services
// connect through MNEME_NATS_TLS_CA), with MNEME_HTTP_TLS_* the API is HTTPS only; both verify against a CA
// made here, in production mode (credentials and TLS together).
func TestTLS(t *testing.T) {
	pki := newPKI(t)
	authDir := filepath.Join(t.TempDir(), "nats-auth")
	sys := apptest.Start(t, map[string]string{
		"MNEME_DEV_MODE": "false", "MNEME_NATS_AUTH_DIR": authDir,
		"MNEME_NATS_SERVER_TLS_CERT": pki.certFile, "MNEME_NATS_SERVER_TLS_KEY": pki.keyFile, "MNEME_NATS_TLS_CA": pki.caFile,
		"MNEME_HTTP_TLS_CERT": pki.certFile, "MNEME_HTTP_TLS_KEY": pki.keyFile,
	})
	setup, err := natsauth.Load(authDir)
	if err != nil {
		t.Fatal(err)
	}

	// HTTP: HTTPS verified against the CA; plain HTTP gets no answer it can use.
	https := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pki.pool}}}
	resp, err := https.Get(sys.BaseURL + "/healthz")
	if err != nil {
		t.Fatalf("HTTPS with the CA: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.TLS == nil {
		t.Fatalf("HTTPS: %d, TLS %v", resp.StatusCode, resp.TLS != nil)
	}
	plainURL := "http://" + sys.App.HTTPAddr() + "/healthz"
	if resp, err := http.Get(plainURL); err == nil {
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			t.Fatal("plain HTTP answered 200")
		}
	}
	if _, err := (&http.Client{}).Get(sys.BaseURL + "/healthz"); err == nil {
		t.Fatal("HTTPS verified without the CA")
	}

	// NATS: a TLS client trusting the CA connects with its credentials; without TLS, or without the CA, not.
	cred, err := setup.IssueAgent("acme", "planner", 0)
	if err != nil {
		t.Fatal(err)
	}
	credsFile := filepath.Join(t.TempDir(), "planner.creds")
	if err := os.WriteFile(credsFile, cred.Creds, 0o600); err != nil {
		t.Fatal(err)
	}
	nc, err := bus.Connect(sys.NATSURL, "tls-test", bus.WithCredentials(credsFile), bus.WithTLS(pki.caFile, "", ""))
	if err != nil {
		t.Fatalf("NATS over TLS with the CA: %v", err)
	}
	if _, err := nc.TLSConnectionState(); err != nil {
		t.Fatalf("the connection is not TLS: %v", err)
	}
	nc.Close()
	if nc, err := nats.Connect(sys.NATSURL, nats.UserCredentials(credsFile), nats.Timeout(2*time.Second)); err == nil {
		nc.Close()
		t.Fatal("NATS connected with an unverified certificate")
	}
	u, err := url.Parse(sys.NATSURL)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.DialTimeout("tcp", u.Host, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(3 * time.Second))
	buf := make([]byte, 4096)
	n, _ := conn.Read(buf)
	if !containsAll(string(buf[:n]), `"tls_required":true`, `"auth_required":true`) {
		t.Fatalf("the server's INFO does not require TLS and authentication: %s", buf[:n])
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := sys.App.JetStream().Conn().FlushWithContext(ctx); err != nil {
		t.Fatalf("Mneme's own connection over TLS: %v", err)
	}
}

func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
