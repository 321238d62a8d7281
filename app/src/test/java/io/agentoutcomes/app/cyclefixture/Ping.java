package io.agentoutcomes.app.cyclefixture;

/** Half of a cycle for {@code ClassCyclesTest}: it answers with a {@link Pong}, which answers with a {@code Ping}. */
public final class Ping {
    public Pong answer() {
        return new Pong();
    }
}
