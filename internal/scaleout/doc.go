// Package scaleout holds the scale-out and recovery test of Mneme (scaleout_test.go): a three-node NATS
// JetStream cluster with R3 streams, two OS processes of every service, a bounded load of turns, structured
// claims and searches, kill -9 of one NATS node and one process of each service at chosen moments, and checks
// that every accepted input has its effect exactly once. It runs in production mode as a deployment does: the
// NATS nodes trust the operator and accounts of `mneme nats init` (each node preloads them into its own
// resolver), every service process connects with its own least-privileged credential, the agent publishes to
// its inbox with its agent credential and calls HTTP with its workspace key; no service may be refused a
// permission on the way. The package has no code besides its test; the test
// binary doubles as a NATS node and as `mneme run -target=<service>` (the same app.Build and App.Run).
package scaleout
