package bus_test

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/bus/bustest"
)

// BenchmarkConsumerTracing measures what a delivery's span costs the consumer runtime: b.N messages carrying a
// traceparent are consumed and acknowledged by four workers, with tracing off (the no-op provider, the
// default) and on (the SDK, every span sampled, batched to an exporter that discards). One op is one message
// from fetch to acknowledgement.
func BenchmarkConsumerTracing(b *testing.B) {
	for _, mode := range []struct {
		name string
		tp   func() trace.TracerProvider
	}{
		{"off", func() trace.TracerProvider { return noop.NewTracerProvider() }},
		{"on", func() trace.TracerProvider {
			return sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
		}},
	} {
		b.Run(mode.name, func(b *testing.B) {
			tp := mode.tp()
			otel.SetTracerProvider(tp)
			defer otel.SetTracerProvider(noop.NewTracerProvider())
			srv := bustest.Start(b)
			ctx := context.Background()
			stream := "BENCH"
			if _, err := srv.JS.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
				Name: stream, Subjects: []string{"bench.>"}, Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage,
			}); err != nil {
				b.Fatal(err)
			}
			parent, span := tp.Tracer("bench").Start(ctx, "publish")
			for i := range b.N {
				m := nats.NewMsg("bench.work")
				m.Data = []byte(strconv.Itoa(i))
				bus.InjectTrace(parent, m.Header)
				if _, err := srv.JS.PublishMsgAsync(m); err != nil {
					b.Fatal(err)
				}
				if i%256 == 255 || i == b.N-1 {
					select {
					case <-srv.JS.PublishAsyncComplete():
					case <-time.After(time.Minute):
						b.Fatal("publish not acknowledged")
					}
				}
			}
			span.End()
			var handled atomic.Int64
			done := make(chan struct{})
			c := bus.NewConsumer(srv.JS, bus.ConsumerOptions{
				Stream: stream,
				Config: jetstream.ConsumerConfig{Durable: "bench", AckPolicy: jetstream.AckExplicitPolicy, AckWait: 30 * time.Second,
					MaxDeliver: -1, MaxAckPending: 1024},
				Pull:   []jetstream.PullMessagesOpt{jetstream.PullMaxMessages(256)},
				Stage:  "bench",
				Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
				Hooks: bus.Hooks{Acked: func(context.Context, *bus.Delivery) {
					if handled.Add(1) == int64(b.N) {
						close(done)
					}
				}},
			})
			rctx, cancel := context.WithCancel(ctx)
			runErr := make(chan error, 1)
			b.ResetTimer()
			go func() {
				runErr <- c.Run(rctx, bus.Concurrent(4, func(context.Context, *bus.Delivery) error { return nil }))
			}()
			select {
			case <-done:
			case <-time.After(5 * time.Minute):
				b.Fatalf("%d of %d handled", handled.Load(), b.N)
			}
			b.StopTimer()
			cancel()
			if err := <-runErr; err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
			if sdk, ok := tp.(*sdktrace.TracerProvider); ok {
				_ = sdk.Shutdown(ctx)
			}
		})
	}
}

// BenchmarkDeliverySpan isolates the tracing work the runtime adds to each delivery: extracting the trace context
// from a real message's headers, starting the consumer span with its attributes, handing it to the handler's
// context and ending it. Off is the no-op provider (tracing disabled); on is the SDK sampling every span, batched
// to an exporter that discards.
func BenchmarkDeliverySpan(b *testing.B) {
	srv := bustest.Start(b)
	ctx := context.Background()
	if _, err := srv.JS.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: "SPAN", Subjects: []string{"span.>"}}); err != nil {
		b.Fatal(err)
	}
	m := nats.NewMsg("span.work")
	m.Data = []byte("x")
	m.Header.Set("traceparent", "00-4bf92f3577b34da6a3ce929e0e4736f1-00f067aa0ba902b7-01")
	m.Header.Set(jetstream.MsgIDHeader, "id-1")
	if _, err := srv.JS.PublishMsg(ctx, m); err != nil {
		b.Fatal(err)
	}
	cons, err := srv.JS.OrderedConsumer(ctx, "SPAN", jetstream.OrderedConsumerConfig{})
	if err != nil {
		b.Fatal(err)
	}
	msg, err := cons.Next(jetstream.FetchMaxWait(10 * time.Second))
	if err != nil {
		b.Fatal(err)
	}
	for _, mode := range []struct {
		name string
		tp   func() trace.TracerProvider
	}{
		{"off", func() trace.TracerProvider { return noop.NewTracerProvider() }},
		{"on", func() trace.TracerProvider {
			return sdktrace.NewTracerProvider(sdktrace.WithBatcher(tracetest.NewNoopExporter()))
		}},
	} {
		b.Run(mode.name, func(b *testing.B) {
			tp := mode.tp()
			otel.SetTracerProvider(tp)
			defer otel.SetTracerProvider(noop.NewTracerProvider())
			b.ReportAllocs()
			for b.Loop() {
				sctx, span := bus.StartConsumerSpan(ctx, "bench process", msg)
				_ = trace.ContextWithSpan(ctx, trace.SpanFromContext(sctx))
				span.End()
			}
			b.StopTimer()
			if sdk, ok := tp.(*sdktrace.TracerProvider); ok {
				_ = sdk.Shutdown(ctx)
			}
		})
	}
}
