package io.agentoutcomes.app.cyclefixture;

/** Uses both halves of {@code ClassCyclesTest}'s cycle without being part of it. */
public final class User {
    public Pong play() {
        return new Ping().answer();
    }
}
