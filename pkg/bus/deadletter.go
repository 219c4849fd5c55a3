package bus

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Dead-letter bounds. A dead letter must always fit in one message, whatever it reports on: a message at the
// stream's size limit plus the dead-letter headers would not, and a rejected message that cannot be parked is
// redelivered forever (or, with a delivery bound, left in its stream unprocessed).
const (
	// DeadLetterFullBodyBytes is the largest body a dead letter copies whole.
	DeadLetterFullBodyBytes = 1 << 20
	// DeadLetterExcerptBytes is how much of a larger body a dead letter keeps.
	DeadLetterExcerptBytes = 64 << 10
	// maxReasonBytes bounds the reason header (error messages may quote input).
	maxReasonBytes = 4 << 10
	// maxCopiedHeaderBytes bounds the original headers copied, in total; maxCopiedValueBytes each value.
	maxCopiedHeaderBytes = 16 << 10
	maxCopiedValueBytes  = 1 << 10
)

// DeadLetterMsg builds the dead letter of msg (which arrived on subject with data, headers hdr and, when md is
// not nil, its stream position) for stage with reason. It never exceeds DeadLetterFullBodyBytes plus about
// 24 KiB of headers:
//   - the body is copied whole up to DeadLetterFullBodyBytes, else its first DeadLetterExcerptBytes (cut on a
//     UTF-8 boundary) with Mneme-Dlq-Truncated: true; Mneme-Dlq-Size and Mneme-Dlq-Digest (SHA-256) always
//     describe the original, and Mneme-Dlq-Stream/-Sequence say where it was;
//   - the original headers are copied except Nats-* ones (JetStream would apply them to the dead-letter publish:
//     an expected-stream header copied from an inbox message makes every dead-letter publish fail), up to
//     16 KiB in total; the original Nats-Msg-Id is kept as Mneme-Dlq-Msg-Id;
//   - the reason is cut to 4 KiB, and every header value Mneme sets has control characters replaced, so input
//     quoted in an error message cannot start a header line of its own.
func DeadLetterMsg(stage, subject string, data []byte, hdr nats.Header, md *jetstream.MsgMetadata, reason string) *nats.Msg {
	dl := nats.NewMsg(DLQSubject(stage))
	budget := maxCopiedHeaderBytes
	for k, vs := range hdr {
		if len(k) >= 5 && strings.EqualFold(k[:5], "nats-") {
			continue
		}
		for _, v := range vs {
			v = headerValue(v, maxCopiedValueBytes)
			if budget -= len(k) + len(v) + 4; budget < 0 {
				break
			}
			dl.Header.Add(k, v)
		}
	}
	if id := hdr.Get(jetstream.MsgIDHeader); id != "" {
		dl.Header.Set(HeaderDLQMsgID, headerValue(id, maxCopiedValueBytes))
	}
	dl.Header.Set(HeaderDLQReason, headerValue(reason, maxReasonBytes))
	dl.Header.Set(HeaderDLQStage, headerValue(stage, 64))
	dl.Header.Set(HeaderDLQSubject, headerValue(subject, maxCopiedValueBytes))
	sum := sha256.Sum256(data)
	dl.Header.Set(HeaderDLQDigest, "sha256:"+hex.EncodeToString(sum[:]))
	dl.Header.Set(HeaderDLQSize, strconv.Itoa(len(data)))
	dl.Data = data
	if len(data) > DeadLetterFullBodyBytes {
		cut := DeadLetterExcerptBytes
		for cut > 0 && !utf8.RuneStart(data[cut]) {
			cut--
		}
		dl.Data = data[:cut:cut]
		dl.Header.Set(HeaderDLQTruncated, "true")
	}
	if md != nil {
		dl.Header.Set(HeaderDLQStream, md.Stream)
		dl.Header.Set(HeaderDLQSequence, strconv.FormatUint(md.Sequence.Stream, 10))
		// One dead letter per source message, even if dead-lettering is retried.
		dl.Header.Set(jetstream.MsgIDHeader, fmt.Sprintf("dlq:%s:%d", md.Stream, md.Sequence.Stream))
	}
	return dl
}

// DeadLetter publishes the dead letter of msg (DeadLetterMsg) to the dead-letter subject of stage and waits
// for JetStream's acknowledgement, so a bad message is kept for inspection and never blocks what follows. The
// caller then terminates (Term) the original. An error means the dead letter is not stored: the caller must
// hand the original back for redelivery rather than drop it.
func DeadLetter(ctx context.Context, js jetstream.JetStream, stage string, msg jetstream.Msg, reason string) error {
	md, err := msg.Metadata()
	if err != nil {
		md = nil
	}
	dl := DeadLetterMsg(stage, msg.Subject(), msg.Data(), msg.Headers(), md, reason)
	if _, err := js.PublishMsg(ctx, dl); err != nil {
		return fmt.Errorf("bus: dead-letter to %s: %w", dl.Subject, err)
	}
	return nil
}

// headerValue makes s safe as one NATS header value of at most limit bytes: control characters (CR and LF
// would end the header line) become U+FFFD, invalid UTF-8 too, and a longer value is cut on a rune boundary
// with "…" appended.
func headerValue(s string, limit int) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= utf8.RuneSelf {
			clean = false
			break
		}
	}
	if !clean {
		var b strings.Builder
		for _, r := range s {
			if r < 0x20 || r == 0x7f || r == utf8.RuneError || (r >= 0x80 && r < 0xa0) {
				r = utf8.RuneError
			}
			b.WriteRune(r)
		}
		s = b.String()
	}
	if len(s) <= limit {
		return s
	}
	const ellipsis = "…"
	cut := max(limit-len(ellipsis), 0)
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + ellipsis
}
