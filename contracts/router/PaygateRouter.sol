pragma solidity 0.4.18;

// Payments in the chain's native coin (ETH), as a token payment is one transfer: the buyer calls pay() with the coin,
// the router forwards all of it to the destination in the same transaction and logs Paid with the payment's
// reference, so the service can tell which payment a transfer of coin was for (a plain send cannot carry one).
// A destination that is a contract wallet works: the call forwards all gas left. It holds no coin and has no owner
// and no fallback function, so coin sent to it without a pay() call is refused. It remembers which payer paid which
// reference, so a second transaction of the same payment (a wallet that sends twice) reverts instead of paying
// twice; per payer, so that nobody else can use a payment's reference to make the buyer's transaction revert.
contract PaygateRouter {
    /// One payment: `amount` wei from `payer` to `to` for the payment whose reference is `ref`.
    event Paid(bytes32 indexed ref, address indexed payer, address indexed to, uint256 amount);

    mapping(bytes32 => bool) private paid;

    /// Whether `payer` has paid the reference `ref`.
    function isPaid(bytes32 ref, address payer) public view returns (bool) {
        return paid[keccak256(ref, payer)];
    }

    /// Forwards msg.value (which must be `amount`, more than 0) to `to`, if the deadline (a unix time, seconds)
    /// has not passed and the payer has not paid `ref` already; reverts when `to` refuses the coin, so nothing is
    /// ever left here.
    function pay(bytes32 ref, address to, uint256 amount, uint256 deadline) public payable {
        require(ref != 0);
        require(to != address(0));
        require(amount > 0 && msg.value == amount);
        require(now <= deadline);
        bytes32 key = keccak256(ref, msg.sender);
        require(!paid[key]);
        paid[key] = true;
        require(to.call.value(msg.value)());
        Paid(ref, msg.sender, to, msg.value);
    }
}
