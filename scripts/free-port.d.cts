/** A free TCP port on 127.0.0.1, leased to the caller so that no other pick gets it before it is bound (free-port.cjs). */
export declare function freePort(): Promise<number>;
