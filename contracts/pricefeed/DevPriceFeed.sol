pragma solidity 0.4.18;

// A price feed for the development chains with Chainlink's AggregatorV3Interface (decimals, description, version,
// getRoundData, latestRoundData), so code that reads a real Chainlink feed reads this one the same way. Its owner
// (the deployer) sets the answer: setPrice opens a new round now; setRound writes any round with any time, so a
// test can make the latest round stale. Past rounds are kept. Not for real prices.
contract DevPriceFeed {
    struct Round {
        int256 answer;
        uint256 startedAt;
        uint256 updatedAt;
        bool present;
    }

    address public owner;
    uint8 public decimals;
    string public description;
    uint80 public latestRound;
    mapping(uint80 => Round) private rounds;

    /// As Chainlink's aggregators log a new answer.
    event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt);

    modifier onlyOwner() {
        require(msg.sender == owner);
        _;
    }

    /// `_answer` is round 1's, with `_decimals` decimals (8 for a Chainlink ETH / USD feed).
    function DevPriceFeed(uint8 _decimals, string _description, int256 _answer) public {
        owner = msg.sender;
        decimals = _decimals;
        description = _description;
        setPrice(_answer);
    }

    function version() public pure returns (uint256) {
        return 4;
    }

    /// A round set before; reverts for one never set (as Chainlink's "No data present").
    function getRoundData(uint80 _roundId)
        public
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        Round storage r = rounds[_roundId];
        require(r.present);
        return (_roundId, r.answer, r.startedAt, r.updatedAt, _roundId);
    }

    function latestRoundData()
        public
        view
        returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)
    {
        return getRoundData(latestRound);
    }

    /// A new round (the latest round's id + 1) with `answer`, started and updated now.
    function setPrice(int256 answer) public onlyOwner {
        latestRound++;
        rounds[latestRound] = Round(answer, now, now, true);
        AnswerUpdated(answer, latestRound, now);
    }

    /// Round `roundId` (not 0) with `answer`, started and updated at `updatedAt`, becomes the latest round.
    function setRound(uint80 roundId, int256 answer, uint256 updatedAt) public onlyOwner {
        require(roundId != 0);
        latestRound = roundId;
        rounds[roundId] = Round(answer, updatedAt, updatedAt, true);
        AnswerUpdated(answer, roundId, updatedAt);
    }
}
