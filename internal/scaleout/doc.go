// Package scaleout holds the scale-out and recovery test of Mneme (scaleout_test.go): a three-node NATS
// JetStream cluster with R3 streams, two OS processes of every service, a bounded load of turns, structured
// claims and searches, kill -9 of one NATS node and one process of each service at chosen moments, and checks
// that every accepted input has its effect exactly once. The package has no code besides its test; the test
// binary doubles as a NATS node and as `mneme run -target=<service>` (the same app.Build and App.Run).
package scaleout
