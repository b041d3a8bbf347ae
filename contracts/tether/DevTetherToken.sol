pragma solidity 0.4.18;

// A development USDT with the behaviour of Tether's TetherToken on Ethereum (0xdAC17F958D2ee523a2206206994597C13D831ec7,
// Solidity 0.4.17) that callers depend on, written for paygate's development chains (not Tether's code):
// - transfer, transferFrom and approve return nothing (callers expecting a bool fail on them);
// - approve from a non-zero allowance to another non-zero value reverts (set it to 0 first);
// - an allowance of 2^256-1 is never decreased by transferFrom;
// - the owner issues (mints to itself) and redeems; pause and a blacklist stop transfers; a fee hook (zero);
// - uint decimals (6); no EIP-2612 permit, no EIP-3009.
// Compiled with solc 0.4.18 from npm: scripts/build-tether.mjs, artifact in DevTetherToken.json.
contract DevTetherToken {
    string public name;
    string public symbol;
    uint public decimals;
    uint public totalSupply;
    address public owner;
    bool public paused;
    uint public basisPointsRate;
    uint public maximumFee;
    uint constant MAX_UINT = 2**256 - 1;

    mapping(address => uint) public balances;
    mapping(address => mapping(address => uint)) public allowed;
    mapping(address => bool) public isBlackListed;

    event Transfer(address indexed from, address indexed to, uint value);
    event Approval(address indexed owner, address indexed spender, uint value);
    event Issue(uint amount);
    event Redeem(uint amount);
    event Pause();
    event Unpause();
    event AddedBlackList(address user);
    event RemovedBlackList(address user);

    modifier onlyOwner() {
        require(msg.sender == owner);
        _;
    }

    modifier whenNotPaused() {
        require(!paused);
        _;
    }

    // Tether's guard against short-address calls.
    modifier onlyPayloadSize(uint size) {
        require(!(msg.data.length < size + 4));
        _;
    }

    function DevTetherToken(uint _initialSupply, string _name, string _symbol, uint _decimals) public {
        owner = msg.sender;
        totalSupply = _initialSupply;
        balances[owner] = _initialSupply;
        name = _name;
        symbol = _symbol;
        decimals = _decimals;
    }

    function balanceOf(address who) public constant returns (uint) {
        return balances[who];
    }

    function allowance(address _owner, address _spender) public constant returns (uint) {
        return allowed[_owner][_spender];
    }

    function fee(uint _value) internal constant returns (uint) {
        uint f = _value * basisPointsRate / 10000;
        return f > maximumFee ? maximumFee : f;
    }

    function move(address _from, address _to, uint _value) internal {
        require(!isBlackListed[_from]);
        require(balances[_from] >= _value);
        uint f = fee(_value);
        uint sent = _value - f;
        balances[_from] -= _value;
        balances[_to] += sent;
        if (f > 0) {
            balances[owner] += f;
            Transfer(_from, owner, f);
        }
        Transfer(_from, _to, sent);
    }

    function transfer(address _to, uint _value) public whenNotPaused onlyPayloadSize(2 * 32) {
        move(msg.sender, _to, _value);
    }

    function transferFrom(address _from, address _to, uint _value) public whenNotPaused onlyPayloadSize(3 * 32) {
        uint _allowance = allowed[_from][msg.sender];
        require(_allowance >= _value);
        if (_allowance < MAX_UINT) {
            allowed[_from][msg.sender] = _allowance - _value;
        }
        move(_from, _to, _value);
    }

    function approve(address _spender, uint _value) public onlyPayloadSize(2 * 32) {
        require(!((_value != 0) && (allowed[msg.sender][_spender] != 0)));
        allowed[msg.sender][_spender] = _value;
        Approval(msg.sender, _spender, _value);
    }

    function issue(uint amount) public onlyOwner {
        require(totalSupply + amount > totalSupply);
        require(balances[owner] + amount > balances[owner]);
        balances[owner] += amount;
        totalSupply += amount;
        Issue(amount);
    }

    function redeem(uint amount) public onlyOwner {
        require(totalSupply >= amount);
        require(balances[owner] >= amount);
        totalSupply -= amount;
        balances[owner] -= amount;
        Redeem(amount);
    }

    function transferOwnership(address newOwner) public onlyOwner {
        if (newOwner != address(0)) {
            owner = newOwner;
        }
    }

    function pause() public onlyOwner {
        paused = true;
        Pause();
    }

    function unpause() public onlyOwner {
        paused = false;
        Unpause();
    }

    function addBlackList(address _user) public onlyOwner {
        isBlackListed[_user] = true;
        AddedBlackList(_user);
    }

    function removeBlackList(address _user) public onlyOwner {
        isBlackListed[_user] = false;
        RemovedBlackList(_user);
    }

    function setParams(uint newBasisPoints, uint newMaxFee) public onlyOwner {
        require(newBasisPoints < 20);
        require(newMaxFee < 50 * (10**decimals));
        basisPointsRate = newBasisPoints;
        maximumFee = newMaxFee;
    }
}
