package io.agentoutcomes.app.cyclefixture;

/** The other half of {@code ClassCyclesTest}'s cycle. */
public final class Pong {
    public Ping answer() {
        return new Ping();
    }
}
