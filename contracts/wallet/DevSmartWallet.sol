pragma solidity 0.4.18;

// A minimal smart-contract wallet for the development chains' tests of ERC-1271 and ERC-6492 signers: one owner (an
// EOA) set at creation, whose ECDSA signature of a hash is the wallet's signature of it (ERC-1271), and calls the
// owner makes through it (an approve of Permit2, say). Deployed counterfactually through a CREATE2 factory, its
// address is known before it exists, so it can sign before its first transaction (ERC-6492). Not for real funds.
contract DevSmartWallet {
    address public owner;

    function DevSmartWallet(address _owner) public {
        owner = _owner;
    }

    /// ERC-1271: 0x1626ba7e when `signature` is the owner's 65-byte signature of `hash`, else 0xffffffff.
    function isValidSignature(bytes32 hash, bytes signature) public view returns (bytes4) {
        if (signature.length != 65) return 0xffffffff;
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(signature, 32))
            s := mload(add(signature, 64))
            v := byte(0, mload(add(signature, 96)))
        }
        if (v < 27) v += 27;
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }

    /// A call the owner makes through the wallet; reverts when the call reverts.
    function execute(address to, uint256 value, bytes data) public {
        require(msg.sender == owner);
        require(to.call.value(value)(data));
    }

    function () public payable {}
}
