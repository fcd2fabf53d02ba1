package dev.frontrun.spring;

import java.io.UnsupportedEncodingException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.web.servlet.FlashMap;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.ModelAndView;

/**
 * A request's {@link MvcResult} that equals another when both were answered with the same status and body, so
 * that {@code serializable(Observation.database().responses(true))} compares what two runs of a request answered.
 * Every other call goes to the result MockMvc returned.
 */
final class AnsweredRequest implements MvcResult {

    private final MvcResult result;
    private final int status;
    private final String body;

    AnsweredRequest(MvcResult result) {
        this.result = Objects.requireNonNull(result, "result");
        MockHttpServletResponse response = result.getResponse();
        this.status = response.getStatus();
        this.body = body(response);
    }

    private static String body(MockHttpServletResponse response) {
        try {
            return response.getContentAsString(StandardCharsets.UTF_8);
        } catch (UnsupportedEncodingException e) {
            throw new IllegalStateException("cannot read the response body", e);
        }
    }

    @Override
    public MockHttpServletRequest getRequest() {
        return result.getRequest();
    }

    @Override
    public MockHttpServletResponse getResponse() {
        return result.getResponse();
    }

    @Override
    public Object getHandler() {
        return result.getHandler();
    }

    @Override
    public HandlerInterceptor[] getInterceptors() {
        return result.getInterceptors();
    }

    @Override
    public ModelAndView getModelAndView() {
        return result.getModelAndView();
    }

    @Override
    public Exception getResolvedException() {
        return result.getResolvedException();
    }

    @Override
    public FlashMap getFlashMap() {
        return result.getFlashMap();
    }

    @Override
    public Object getAsyncResult() {
        return result.getAsyncResult();
    }

    @Override
    public Object getAsyncResult(long timeToWait) {
        return result.getAsyncResult(timeToWait);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof AnsweredRequest that && status == that.status && body.equals(that.body);
    }

    @Override
    public int hashCode() {
        return 31 * status + body.hashCode();
    }

    /** The answer as a difference shows it: {@code 409 {"error":"conflict"}}. */
    @Override
    public String toString() {
        return body.isEmpty() ? String.valueOf(status) : status + " " + body;
    }
}
