// Package rpc is the request/response plumbing every kafkascope node uses on
// top of core/sim's messages, in the role of Kafka's NetworkClient: it stamps
// correlation ids, matches responses to requests, and fails a call when its
// timeout fires or the peer resets the connection.
//
// It knows no Kafka API and holds no policy: retries and backoff belong to
// the caller.
package rpc
