package dev.frontrun.nativeio.endpoints;

import dev.frontrun.ResourceAccess;
import dev.frontrun.Step;
import dev.frontrun.nativeio.DatabasePort;
import dev.frontrun.nativeio.Hold;
import dev.frontrun.nativeio.NativeIo;
import dev.frontrun.nativeio.RequestListener;
import dev.frontrun.nativeio.SocketRequest;
import dev.frontrun.spi.ExecutionContext;
import dev.frontrun.spi.ExplorationHook;
import dev.frontrun.spi.SchedulingPoints;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Makes every request an explored thread sends to another service over a socket a scheduling point,
 * seen beneath the JDK by the preloaded {@code libfrontrun_io.so}: before the request's first byte
 * leaves, the thread announces a step writing the resource {@code socket:<host>:<port>} and parks
 * like at any other scheduling point. Two threads' requests to the same endpoint conflict, so the
 * exploration runs both of their orders; requests to different endpoints are independent.
 *
 * <p>Design notes: see the package documentation.
 */
public final class EndpointFeed implements ExplorationHook {

    /** Stateless, so one per JVM serves every exploration (the library takes one listener per process). */
    private static final RequestListener ANNOUNCER = EndpointFeed::announce;

    private final DataSource database;
    private Hold fed;
    private Hold databaseIgnored;
    private NativeIo.UnfedRequests unfedBefore;
    private NativeIo.UnfedRequests unfedAfter;

    /** Explores the requests of the explored threads to every endpoint. */
    public EndpointFeed() {
        this(null);
    }

    /** Explores the requests to every endpoint but {@code database}'s (null: no database). */
    public EndpointFeed(DataSource database) {
        this.database = database;
    }

    /** The step a request is: a write of its endpoint, labelled with the request's first line. */
    public static Step step(SocketRequest request) {
        String label = "request to " + request.endpoint() + (request.head().isEmpty() ? "" : ": " + request.head());
        return new Step(List.of(ResourceAccess.write(request.endpoint())), Set.of(), Set.of(), label, request);
    }

    private static void announce(SocketRequest request) {
        SchedulingPoints.step(step(request));
    }

    @Override
    public void beforeExploration() throws Exception {
        NativeIo.listenToRequests(ANNOUNCER);
        if (database != null) {
            databaseIgnored = NativeIo.ignoreRequestsTo(DatabasePort.of(database));
        }
        unfedBefore = NativeIo.unfedRequests();
        fed = NativeIo.feedRequests();
    }

    /** The work run plainly announces nothing: no feed, so its requests cost what they cost without Frontrun. */
    @Override
    public void beforeBaseline() {}

    @Override
    public void threadStarting(ExecutionContext execution, int thread) {
        NativeIo.feedCurrentThread(true);
    }

    /**
     * Requests sent during the exploration by threads that are not explored (a client that writes on threads
     * of its own). Their order was not explored, and the result says so instead of passing for a certificate.
     */
    @Override
    public List<String> notExplored() {
        if (unfedBefore == null || unfedAfter == null || unfedAfter.count() == unfedBefore.count()) {
            return List.of();
        }
        return List.of((unfedAfter.count() - unfedBefore.count()) + " request(s) to other services (the last to port "
                + unfedAfter.lastPort() + ") were sent by threads outside the exploration, e.g. a client with threads"
                + " of its own (the JDK's HttpClient, Netty's WebClient): their order against the explored threads'"
                + " was not explored. Use a client that sends on the calling thread (RestClient on"
                + " SimpleClientHttpRequestFactory or Apache HttpClient's classic API)");
    }

    @Override
    public void afterExploration() {
        try {
            unfedAfter = NativeIo.unfedRequests();
            if (fed != null) {
                fed.close();
            }
        } finally {
            fed = null;
            if (databaseIgnored != null) {
                databaseIgnored.close();
                databaseIgnored = null;
            }
        }
    }
}
