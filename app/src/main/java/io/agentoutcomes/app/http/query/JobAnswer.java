package io.agentoutcomes.app.http.query;

import io.agentoutcomes.avro.JobReplayState;

/** What a job query found: the state here, none anywhere, another instance's answer, or none now. */
public sealed interface JobAnswer {

    /** The job's state, found here. */
    record Found(JobReplayState state) implements JobAnswer {
    }

    /** No instance has the job. */
    record NotFound(String jobId) implements JobAnswer {
    }

    /** Another instance's answer to a request forwarded to it relayed as it came. */
    record Relayed(int status, String body) implements JobAnswer {
    }

    /** No answer now (a rebalance, or the holding instance unreachable): retry shortly. */
    record Unavailable(String reason) implements JobAnswer {
    }
}
