/**
 * Requests to other services, seen at the socket, as scheduling points of their own.
 *
 * <h2>{@link EndpointFeed}</h2>
 *
 * <p>One step is the whole exchange: the request and the reading of its response (a request is the
 * first write on a connection since its last response). Not a second step for the response: parked
 * between its request and its response, a thread would leave its request to be served while another
 * thread's request came in, in an order no schedule decides, and replays would diverge. And every
 * request is a write: whether a service's {@code GET} changes nothing is the service's promise, not
 * something Frontrun can see, so requests are never taken to commute (coarser, never finer).
 *
 * <p>Only the I/O an explored thread does itself is explored: a client that sends on threads of its own
 * (the JDK's {@code java.net.http.HttpClient}, Netty) is not, and the result says so ({@link EndpointFeed#notExplored}). The database's traffic is not
 * a request (the JDBC proxy explores it statement by statement): its port is ignored.
 */
package dev.frontrun.nativeio.endpoints;
